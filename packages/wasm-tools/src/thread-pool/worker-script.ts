import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { defaultCacheDir, writeFileAtomic } from '../runtime/cache-dir.js';
import { touchCacheEntry } from '../runtime/cache-prune.js';
import { ComponentRuntimeError } from '../runtime/component-runtime-error.js';
import { missingAssetMessage } from '../runtime/package-assets.js';

const bundled = new Map<string, Promise<URL>>();

/**
 * Bundles a TypeScript worker entry (a source checkout, under vitest or tsx, where worker threads
 * cannot load `.ts`) into one ES module in the package's cache folder, keyed by content hash, so
 * bare imports (`just-bash`, ...) still resolve from the package's `node_modules`, while `@boxagnts/*`
 * imports are bundled from source. Once per process.
 */
async function bundleSourceEntry(sourcePath: string): Promise<URL> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [sourcePath],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Third-party packages stay imports (resolved from the package's node_modules); the monorepo's own
    // `@boxagnts/*` packages are bundled from their sources, since in a source checkout their `dist/` may not
    // be built (a fresh clone under vitest), and a worker thread cannot load their `.ts` entries.
    conditions: ['@boxagnts/source'],
    plugins: [
      {
        name: 'external-except-boxagnts',
        setup(builder) {
          builder.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@boxagnts/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
    write: false,
    logLevel: 'silent',
  });
  const text = result.outputFiles[0]?.text ?? '';
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const name = sourcePath.split(/[\\/]/).pop()?.replace(/\.ts$/, '') ?? 'worker';
  const path = join(defaultCacheDir(), 'threads', `${name}-${hash}.mjs`);
  if (!existsSync(path)) await writeFileAtomic(path, text);
  else await touchCacheEntry(path);
  return pathToFileURL(path);
}

function missingScriptError(from: string, name: string, candidates: URL[]): ComponentRuntimeError {
  const missing = missingAssetMessage(
    `the worker-thread script ${name}.js`,
    candidates.map((url) => fileURLToPath(url)),
    from,
  );
  return new ComponentRuntimeError(missing.bundled ? 'bundled' : 'missing-file', missing.message);
}

/**
 * The script a worker thread runs for `name` (e.g. `bash-worker`): the built `name.js` beside
 * the calling module or in its `folder` (the bundled `dist/<folder>/name.js`), else the
 * TypeScript source beside it, bundled on first use.
 *
 * @param from the calling module's `import.meta.url`.
 * @throws {Error} when neither a built nor a source entry exists (a broken install).
 */
export function resolveWorkerScript(from: string, folder: string, name: string): Promise<URL> {
  const key = `${from}|${folder}|${name}`;
  const known = bundled.get(key);
  if (known !== undefined) return known;
  const candidates = [new URL(`./${name}.js`, from), new URL(`./${folder}/${name}.js`, from)];
  const built = candidates.find((url) => existsSync(fileURLToPath(url)));
  const source = new URL(`./${name}.ts`, from);
  const resolved =
    built !== undefined
      ? Promise.resolve(built)
      : existsSync(fileURLToPath(source))
        ? bundleSourceEntry(fileURLToPath(source))
        : Promise.reject(missingScriptError(from, name, candidates));
  bundled.set(key, resolved);
  resolved.catch(() => bundled.delete(key));
  return resolved;
}
