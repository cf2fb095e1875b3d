import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuiltComponent, buildJsComponent } from '../runtime/componentize.js';
import { missingAssetMessage } from '../runtime/package-assets.js';
import { FsToolsError } from './fs-tools-error.js';

/** The package folder (the one with `package.json` and `guest/`), found from this file upwards. */
function packageRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    if (existsSync(join(folder, 'package.json')) && existsSync(join(folder, 'guest'))) return folder;
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  throw new FsToolsError(
    'guest-missing',
    missingAssetMessage(
      'the fs-tools guest sources (guest/fs-tools/)',
      [dirname(fileURLToPath(import.meta.url))],
      import.meta.url,
    ).message,
  );
}

type EsbuildModule = typeof import('esbuild');

async function loadEsbuild(): Promise<EsbuildModule> {
  try {
    return await import('esbuild');
  } catch (error) {
    throw new FsToolsError(
      'bundler-missing',
      'Building the fs-tools component needs esbuild to bundle its guest sources: add esbuild to your dependencies.',
      { cause: error },
    );
  }
}

/**
 * Bundles the guest sources (guest/fs-tools/*.js with re2js, ignore and picomatch) into one ES
 * module; `wasi:*` imports stay imports, for componentize-qjs to bind to the WIT world.
 */
export async function bundleFsToolsGuest(): Promise<string> {
  const root = packageRoot();
  let esbuild: EsbuildModule;
  try {
    esbuild = await loadEsbuild();
  } catch (error) {
    // Published packages ship the guest pre-bundled at build time (scripts/prepare-dist.mjs).
    const prebuilt = join(root, 'guest', 'dist', 'fs-tools.bundle.js');
    if (existsSync(prebuilt)) return readFile(prebuilt, 'utf8');
    throw error;
  }
  const settings = JSON.parse(await readFile(join(root, 'guest', 'fs-tools.bundle.json'), 'utf8')) as {
    entryPoint: string;
    options: Parameters<EsbuildModule['build']>[0];
  };
  const result = await esbuild.build({
    ...settings.options,
    entryPoints: [join(root, settings.entryPoint)],
    absWorkingDir: root,
    write: false,
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new FsToolsError('build-failed', 'Bundling the fs-tools guest produced no output.');
  return output.text;
}

/**
 * Builds the read/write/edit/glob/grep component: bundles the guest, then componentizes it against
 * this package's `wit/` (world `function-tool`), cached on disk by content hash so only the first
 * build of a version takes seconds.
 *
 * @example
 * const built = await buildFsToolsComponent();
 * const tools = await createFsTools({ runtime, component: { path: built.path } });
 */
export async function buildFsToolsComponent(cacheDir?: string): Promise<BuiltComponent> {
  const source = await bundleFsToolsGuest();
  return buildJsComponent({
    source,
    witPath: join(packageRoot(), 'wit'),
    world: 'function-tool',
    ...(cacheDir === undefined ? {} : { cacheDir }),
  });
}
