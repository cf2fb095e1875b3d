import { packageTsupConfig } from '../../tsup.config.base.ts';

// The worker entry and the pre-bundled fs-tools guest are loaded at run time, not imported: copy them.
export default packageTsupConfig(['src/index.ts'], { onSuccess: 'node scripts/prepare-dist.mjs' });
