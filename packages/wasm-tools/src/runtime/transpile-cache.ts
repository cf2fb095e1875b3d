import { createHash } from 'node:crypto';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { transpileBytes } from '@bytecodealliance/jco-transpile';
import { writeDirectoryAtomic } from './cache-dir.js';
import { ComponentRuntimeError } from './component-runtime-error.js';

/** Baked into the cache key: another transpiler or other options must not reuse old output. */
const TRANSPILER_KEY = 'jco-transpile@0.15.0+async+v1';
const ENTRY = 'component.js';

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
}

/** sha256 hex of some bytes. */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
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
  const dir = join(cacheDir, 'transpiled', createHash('sha256').update(TRANSPILER_KEY).update(hash).digest('hex'));
  try {
    await access(join(dir, ENTRY));
    return { hash, dir, entry: ENTRY, cacheHit: true };
  } catch {
    // Not transpiled yet.
  }
  let files: Record<string, Uint8Array>;
  try {
    ({ files } = await transpileBytes(bytes, {
      name: 'component',
      instantiation: 'async',
      emitTypescriptDeclarations: false,
    }));
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
  await writeDirectoryAtomic(dir, kept);
  return { hash, dir, entry: ENTRY, cacheHit: false };
}
