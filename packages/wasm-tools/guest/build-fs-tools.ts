// The bundling script of the fs-tools guest: `buildFsToolsComponent(cacheDir?)` bundles
// guest/fs-tools/*.js with esbuild and builds the component with componentize-qjs. The code lives
// in src/fs-tools/ so the package's own code and tests can use it; this file is the entry for
// scripts and benchmarks (e.g. `tsx guest/build-fs-tools.ts` prints where the component is).
import { buildFsToolsComponent } from '../src/fs-tools/build-fs-tools-component.js';

export { buildFsToolsComponent };

if (process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const built = await buildFsToolsComponent(process.argv[2]);
  process.stdout.write(`${built.path} (${built.bytes.length} bytes, ${built.hash.slice(0, 12)})\n`);
}
