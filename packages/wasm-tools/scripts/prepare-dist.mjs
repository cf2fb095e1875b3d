// Runs after tsup: puts what the bundled dist/index.js loads at run time next to it.
// - the child-process worker entry (plain JS, forked by the component runtime) in dist/runtime/;
// - the fs-tools guest bundled into one module (guest/dist/), so installs without esbuild can
//   still componentize it on first use.
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
await mkdir(join(root, 'dist', 'runtime'), { recursive: true });
for (const name of await readdir(join(root, 'src', 'runtime'))) {
  if (name.startsWith('worker') && name.endsWith('.mjs')) {
    await copyFile(join(root, 'src', 'runtime', name), join(root, 'dist', 'runtime', name));
  }
}
const result = await build({
  entryPoints: [join(root, 'guest', 'fs-tools', 'index.js')],
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  mainFields: ['module', 'main'],
  external: ['wasi:*'],
  target: 'es2022',
  legalComments: 'none',
  write: false,
  logLevel: 'silent',
});
await mkdir(join(root, 'guest', 'dist'), { recursive: true });
await writeFile(join(root, 'guest', 'dist', 'fs-tools.bundle.js'), result.outputFiles[0].text);
