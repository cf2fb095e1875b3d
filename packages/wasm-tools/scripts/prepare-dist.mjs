// Runs after tsup: puts what the bundled dist/index.js loads at run time next to it.
// - the child-process worker entries (plain JS, forked by the component runtime and the HTTP
//   component handler) in dist/runtime/, each bundled into one file (bundle-workers.mjs);
// - the fs-tools guest bundled into one module (guest/dist/), so installs without esbuild can
//   still componentize it on first use.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkers } from './bundle-workers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
await bundleWorkers(join(root, 'dist', 'runtime'));
// Bundled with the settings the package uses on demand in development (guest/fs-tools.bundle.json).
const { build } = await import('esbuild');
const settings = JSON.parse(await readFile(join(root, 'guest', 'fs-tools.bundle.json'), 'utf8'));
const result = await build({
  ...settings.options,
  entryPoints: [join(root, settings.entryPoint)],
  absWorkingDir: root,
});
await mkdir(join(root, 'guest', 'dist'), { recursive: true });
await writeFile(join(root, 'guest', 'dist', 'fs-tools.bundle.js'), result.outputFiles[0].text);
