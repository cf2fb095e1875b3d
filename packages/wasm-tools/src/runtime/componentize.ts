/*
 * Building components from JavaScript with componentize-qjs (QuickJS inside the component).
 *
 * How a guest module implements the BoxAgnts function-tool world (wit/function-tool.wit):
 * - Export the interface as an object named after it in camelCase, with camelCase methods:
 *     export const tool = { describe() { return [descriptor, ...]; }, run(name, input) { ... } };
 *   Records are plain objects with camelCase keys (`inputSchema`), enums are strings
 *   (`'read-only'`), `option<T>` is the value or `null`, lists are arrays. `run` returns the
 *   `tool-output` record for `ok`; throwing a string (or Error) returns `err` (a component failure;
 *   a failed tool call is an `ok` with `isError: true`).
 * - WASI is reached by importing the WIT interfaces the world imports, by full name with version:
 *     import { getDirectories } from 'wasi:filesystem/preopens@0.2.12';
 *     const [[root]] = getDirectories();                  // the call's root, mounted at '/'
 *     const file = root.openAt({}, 'a/b.txt', {}, { read: true });
 *     const [bytes, eof] = file.read(65536, 0);            // u64 arguments are plain numbers
 *   Functions returning `result<T, error-code>` return T or throw an Error whose message is the
 *   error code (`'no-entry'`, `'not-permitted'`, `'read-only'`).
 * - QuickJS has no console, TextEncoder/TextDecoder, fs or fetch: write to stdout through
 *   `wasi:cli/stdout@0.2.12` (`getStdout().blockingWriteAndFlush(bytes)`) and code UTF-8 yourself.
 * - Module globals persist across calls on a warm instance (see the runtime's instance cache).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { defaultCacheDir, writeFileAtomic } from './cache-dir.js';
import { ComponentRuntimeError } from './component-runtime-error.js';
import { missingAssetMessage, ownPackageFolder } from './package-assets.js';

/** The componentize-qjs version baked into cache keys: a new builder must not reuse old outputs. */
const BUILDER_VERSION = 'componentize-qjs@0.4.5+sync';

/** What to build: a JS module (its text or its file), the WIT and the world it implements. */
export interface BuildJsComponentOptions {
  /** The guest ES module's text. Give this or `sourcePath`. */
  source?: string;
  /** Path to the guest ES module. Relative imports in it resolve from its folder. */
  sourcePath?: string;
  /**
   * A `.wit` file or a folder of them (with `deps/`). Default: this package's own `wit/` folder
   * (worlds `function-tool` and `command-tool`), found from the installed package.
   */
  witPath?: string;
  /** The world the module implements, e.g. `function-tool` or `command-tool`. */
  world: string;
  /** Where built components are kept; default {@link defaultCacheDir}. */
  cacheDir?: string;
}

/** A built component: where it is cached, its bytes, and the content hash that names it. */
export interface BuiltComponent {
  path: string;
  bytes: Uint8Array;
  hash: string;
}

/** Hashes every `.wit` file under `witPath` (sorted), so a WIT change rebuilds. */
async function hashWit(witPath: string, hash: ReturnType<typeof createHash>): Promise<void> {
  const info = await stat(witPath);
  if (info.isFile()) {
    hash.update(witPath).update(await readFile(witPath));
    return;
  }
  const entries = (await readdir(witPath, { recursive: true })).map(String).sort();
  for (const entry of entries) {
    if (!entry.endsWith('.wit')) continue;
    hash.update(entry).update(await readFile(join(witPath, entry)));
  }
}

const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * Hashes the relative imports of a guest module, recursively, so a change in a helper file
 * rebuilds too (bare imports resolve under the module root and are not followed).
 */
async function hashRelativeImports(
  source: string,
  fromDir: string,
  hash: ReturnType<typeof createHash>,
  seen: Set<string>,
): Promise<void> {
  for (const match of source.matchAll(RELATIVE_IMPORT)) {
    const path = resolve(fromDir, match[1] as string);
    if (seen.has(path)) continue;
    seen.add(path);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      continue;
    }
    hash.update(path).update('\0').update(text).update('\0');
    await hashRelativeImports(text, dirname(path), hash, seen);
  }
}

/**
 * The installed package's `wit/` folder (worlds `function-tool` and `command-tool`, with `deps/`),
 * the default `witPath` of {@link buildJsComponent}.
 *
 * @throws {ComponentRuntimeError} when the package was bundled into an app (mark it external).
 */
export function packageWitPath(): string {
  const folder = ownPackageFolder(import.meta.url);
  if (folder === undefined || !existsSync(join(folder, 'wit'))) {
    const missing = missingAssetMessage('its WIT files (wit/)', folder === undefined ? [] : [join(folder, 'wit')]);
    throw new ComponentRuntimeError(missing.bundled ? 'bundled' : 'missing-file', missing.message);
  }
  return join(folder, 'wit');
}

/**
 * The cache key of a build: a hash of the builder version, the world, the guest source (and its
 * relative imports when built from a file) and every `.wit` file; returns the source read too.
 */
export async function hashJsComponent(options: BuildJsComponentOptions): Promise<{ source: string; hash: string }> {
  if ((options.source === undefined) === (options.sourcePath === undefined)) {
    throw new ComponentRuntimeError(
      'invalid-options',
      'buildJsComponent needs exactly one of `source` or `sourcePath`.',
    );
  }
  const source = options.source ?? (await readFile(options.sourcePath as string, 'utf8'));
  const hasher = createHash('sha256').update(BUILDER_VERSION).update('\0').update(options.world).update('\0');
  hasher.update(source).update('\0');
  if (options.sourcePath !== undefined) {
    await hashRelativeImports(source, dirname(resolve(options.sourcePath)), hasher, new Set());
  }
  await hashWit(resolve(options.witPath ?? packageWitPath()), hasher);
  return { source, hash: hasher.digest('hex') };
}

/**
 * Builds a WebAssembly component from a JavaScript module with componentize-qjs (`sync: true`:
 * Node 20 has no JSPI), cached on disk by {@link hashJsComponent} and written atomically, so
 * concurrent test workers share one cache safely. Builds take 1-3 s; cache hits take ms.
 *
 * @example
 * const built = await buildJsComponent({
 *   source: "export const tool = { describe() { return []; }, run() { throw 'none'; } };",
 *   world: 'function-tool', // witPath: the package's own wit/ by default

 * });
 * const tools = await runtime.loadFunctionComponent({ path: built.path });
 */
export async function buildJsComponent(options: BuildJsComponentOptions): Promise<BuiltComponent> {
  const { source, hash } = await hashJsComponent(options);
  const witPath = resolve(options.witPath ?? packageWitPath());
  const path = join(options.cacheDir ?? defaultCacheDir(), 'components', `${hash}.wasm`);
  try {
    const bytes = new Uint8Array(await readFile(path));
    return { path, bytes, hash };
  } catch {
    // Not cached yet: build below.
  }
  let component: Buffer;
  try {
    // The toolchain loads when a component is built, never when the package is imported.
    const { componentize } = await import('componentize-qjs');
    ({ component } = await componentize({
      witPath,
      world: options.world,
      jsSource: source,
      ...(options.sourcePath === undefined ? {} : { jsPath: resolve(options.sourcePath) }),
      sync: true,
    }));
  } catch (error) {
    const where = options.sourcePath ?? 'the given source';
    throw new ComponentRuntimeError(
      'build-failed',
      `Building a component from ${where} (world ${options.world}) failed: ${(error as Error).message}`,
      { cause: error, ...(options.sourcePath === undefined ? {} : { file: options.sourcePath }) },
    );
  }
  const bytes = new Uint8Array(component);
  await writeFileAtomic(path, bytes);
  return { path, bytes, hash };
}
