import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeDirectoryAtomic } from './cache-dir.js';
import { touchCacheEntry } from './cache-prune.js';
import { ComponentRuntimeError } from './component-runtime-error.js';

/** Baked into the cache key: another transpiler or other options must not reuse old output. */
const TRANSPILER_KEY = 'jco-transpile@0.15.0+async+v2';
const ENTRY = 'component.js';
/** What the component imports and exports (interface names without versions), beside the glue. */
const INTERFACE = 'interface.json';

/** A component transpiled to JS + core modules on disk, ready for a worker to import. */
export interface TranspiledComponent {
  /** sha256 of the component bytes: names the cache entry and keys warm instances. */
  hash: string;
  /** Folder holding the entry JS and the `.core*.wasm` files. */
  dir: string;
  /** The entry module's file name inside `dir`. */
  entry: string;
  /** Whether the folder was already there (no transpile ran). */
  cacheHit: boolean;
  /** The interfaces the component exports, without versions (`wasi:cli/run`, `boxagnts:tool/tool`). */
  exports: readonly string[];
  /** The interfaces it imports, without versions (`wasi:http/outgoing-handler`, `wasi:config/store`). */
  imports: readonly string[];
}

/** The kind of component, from what it exports. */
export type ComponentKind = 'function' | 'command' | 'http' | 'unknown';

/** A function tool (`boxagnts:tool/tool`), a command (`wasi:cli/run`), an HTTP handler, or none of these. */
export function componentKind(exports: readonly string[]): ComponentKind {
  if (exports.includes('boxagnts:tool/tool')) return 'function';
  if (exports.includes('wasi:cli/run')) return 'command';
  if (exports.includes('wasi:http/incoming-handler')) return 'http';
  return 'unknown';
}

const withoutVersion = (name: string) => name.replace(/@[^@/]*$/, '');

/** Interface names of jco's `exports` list (it lists `run` and `wasi:cli/run@0.2.3`): the qualified ones only. */
function interfaceNames(list: ReadonlyArray<readonly [string, string]> | readonly string[]): string[] {
  const names = list.map((item) => (typeof item === 'string' ? item : item[0]));
  return [...new Set(names.filter((name) => name.includes(':')).map(withoutVersion))].sort();
}

/** sha256 hex of some bytes. */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The cache folder of the component whose bytes hash to `hash` ({@link hashBytes}), for this transpiler. */
export function transpiledDir(cacheDir: string, hash: string): string {
  return join(cacheDir, 'transpiled', createHash('sha256').update(TRANSPILER_KEY).update(hash).digest('hex'));
}

/**
 * Transpiles a component with jco (`instantiation: 'async'`, so every capability comes through
 * the import object) into `<cacheDir>/transpiled/<hash>/`, unless that folder exists already.
 * Transpiling takes 0.1-1.5 s; a cache hit is one `access` call. The folder is published with a
 * rename, so concurrent processes never see it half-written. `knownHash` saves hashing the bytes
 * twice when the caller has already (it must be {@link hashBytes} of `bytes`).
 */
export async function ensureTranspiled(
  bytes: Uint8Array,
  cacheDir: string,
  name: string,
  knownHash?: string,
): Promise<TranspiledComponent> {
  const hash = knownHash ?? hashBytes(bytes);
  const dir = transpiledDir(cacheDir, hash);
  try {
    const known = JSON.parse(await readFile(join(dir, INTERFACE), 'utf8')) as { exports: string[]; imports: string[] };
    await touchCacheEntry(dir);
    return { hash, dir, entry: ENTRY, cacheHit: true, exports: known.exports, imports: known.imports };
  } catch {
    // Not transpiled yet (the interface file is written with the glue, in one rename).
  }
  let files: Record<string, Uint8Array>;
  let described: { exports: string[]; imports: string[] };
  try {
    // jco's transpiler loads on a cache miss only, never when the package is imported.
    const { transpileBytes } = await import('@bytecodealliance/jco-transpile');
    const transpiled = await transpileBytes(bytes, {
      name: 'component',
      instantiation: 'async',
      emitTypescriptDeclarations: false,
    });
    files = transpiled.files;
    described = { exports: interfaceNames(transpiled.exports), imports: interfaceNames(transpiled.imports) };
  } catch (error) {
    throw new ComponentRuntimeError(
      'invalid-component',
      `${name} is not a WebAssembly component jco can transpile: ${(error as Error).message}. Build it with componentize-qjs, cargo component or wasm-tools component new.`,
      { file: name, cause: error },
    );
  }
  const kept: Record<string, Uint8Array> = {};
  for (const [path, content] of Object.entries(files)) {
    if (path.endsWith('.d.ts')) continue;
    kept[path.split('/').pop() as string] = content;
  }
  if (kept[ENTRY] === undefined) {
    throw new ComponentRuntimeError('invalid-component', `Transpiling ${name} produced no ${ENTRY}.`, { file: name });
  }
  kept[INTERFACE] = new TextEncoder().encode(JSON.stringify(described));
  await writeDirectoryAtomic(dir, kept);
  return { hash, dir, entry: ENTRY, cacheHit: false, ...described };
}
