// Runs after tsup: puts what the bundled dist/index.js loads at run time next to it.
// - the child-process worker entry (plain JS, forked by the component runtime) in dist/runtime/;
// - the fs-tools guest bundled into one module (guest/dist/), so installs without esbuild can
//   still componentize it on first use.
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
await mkdir(join(root, 'dist', 'runtime'), { recursive: true });
for (const name of await readdir(join(root, 'src', 'runtime'))) {
  if (name.startsWith('worker') && name.endsWith('.mjs')) {
    await copyFile(join(root, 'src', 'runtime', name), join(root, 'dist', 'runtime', name));
  }
}
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
