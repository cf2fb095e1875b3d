import { packageTsupConfig } from '../../tsup.config.base.ts';

export default packageTsupConfig(['src/index.ts', 'src/cli/main.ts']);
