import { packageTsupConfig } from '../../tsup.config.base.ts';

// The worker entry and the pre-bundled fs-tools guest are loaded at run time, not imported: copy them.
// The worker-thread entries of bash, js_exec and web_fetch are built beside index.js (dist/<folder>/).
export default packageTsupConfig(
  ['src/index.ts', 'src/bash/bash-worker.ts', 'src/js-exec/js-exec-worker.ts', 'src/web-fetch/html-worker.ts'],
  {
    onSuccess: 'node scripts/prepare-dist.mjs',
    // Loaded on demand (a dev dependency, needed only to build guests or bundle worker sources): never bundled.
    external: ['esbuild'],
  },
);
