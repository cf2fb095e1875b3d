import { packageTsupConfig } from '../../tsup.config.base.ts';

export default packageTsupConfig(['src/index.ts', 'src/adapter-kit.ts']);
