// Loading a transpiled component's JS glue with V8's code cache. The glue is ~0.8 MB with one
// giant instantiation function; compiling it costs a new worker ~100 ms of CPU, every time. The
// glue is a self-contained module (`export function instantiate`, nothing imported), so it can
// run as a classic script whose compiled code V8 serialises (`createCachedData`) into the
// transpile cache and reuses in the next process. V8 checks the cache against the source, its
// version and its flags, and ignores a stale one. When the glue does not have the expected shape
// it is imported as the module it is. Plain JS: this file runs in the forked worker (worker.mjs).
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

const EXPORT_INSTANTIATE = /^export function instantiate\(/m;
const EXPORT_UTIL = /^export const _util = /m;

/**
 * Without JSPI (Node 20) the glue's `try { WebAssembly.promising(f) } catch {}` throws "not a
 * function" five times per instantiation, and V8 re-parses the enclosing 20 000-line function
 * to word that message: about 50 ms per instance. A ready-made error costs nothing.
 */
const NO_JSPI = `const __boxagntsNoJspi = new TypeError('WebAssembly.promising is not available');
const __boxagntsPromising = typeof WebAssembly.promising === 'function'
  ? WebAssembly.promising
  : () => { throw __boxagntsNoJspi; };`;

/**
 * jco's `_debugLog` runs on every host call and every lift and lower, and each time reads
 * `process.env.JCO_DEBUG`: an environment lookup in C++ (hundreds per instantiation, tens of ms
 * of a cold start). A worker's environment never changes (it is forked with an empty one), so
 * the script reads it once.
 */
const JCO_DEBUG_READ = 'globalThis?.process?.env?.JCO_DEBUG';
const JCO_DEBUG_ONCE = `const __boxagntsJcoDebug = ${JCO_DEBUG_READ};`;

/**
 * 64-bit FNV-1a of a string, as hex: names cache files only (V8 itself checks a cache against its
 * version, flags and source), and node:crypto would cost a new worker ~10 ms to load.
 */
function nameHash(text) {
  let hash = 0xcbf29ce484222325n;
  for (let index = 0; index < text.length; index++) {
    hash = BigInt.asUintN(64, (hash ^ BigInt(text.charCodeAt(index))) * 0x100000001b3n);
  }
  return hash.toString(16).padStart(16, '0');
}

/** Cache files are per Node version and worker flags, so runtimes with other limits keep their own. */
const CACHE_SUFFIX = nameHash(`${process.version}\0${process.versions.v8}\0${process.execArgv.join('\0')}`);

/** The glue as a function expression returning `instantiate`, or undefined when it has another shape. */
function asScript(source, url) {
  if (!EXPORT_INSTANTIATE.test(source)) return undefined;
  if (/^\s*(import|export)\s/m.test(source.replace(EXPORT_INSTANTIATE, '').replace(EXPORT_UTIL, ''))) {
    return undefined;
  }
  const body = source
    .replace(EXPORT_INSTANTIATE, 'function instantiate(')
    .replace(EXPORT_UTIL, 'const _util = ')
    .replaceAll('import.meta.url', JSON.stringify(url))
    .replaceAll('WebAssembly.promising(', '__boxagntsPromising(')
    .replaceAll(JCO_DEBUG_READ, '__boxagntsJcoDebug');
  return `(function () {\n'use strict';\n${NO_JSPI}\n${JCO_DEBUG_ONCE}\n${body}\nreturn instantiate;\n})`;
}

async function writeAtomic(path, bytes) {
  const temp = `${path}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}.tmp`;
  try {
    await writeFile(temp, bytes);
    await rename(temp, path);
  } catch {
    await rm(temp, { force: true });
  }
}

/** The wrapping's version: a script kept beside the glue by another version of asScript is not reused. */
const SCRIPT_FORMAT = 'script-v2';

/**
 * The glue as a script (see asScript), kept beside it: wrapping means several regular
 * expressions over 0.8 MB and as many copies of it, 10-20 ms and most of a new worker's garbage
 * (seconds on a busy machine), on every start. The first line names the glue's URL (it is baked
 * into the script), so a copied cache folder wraps again. A new one is written at once (not
 * after the call like V8's cache): a worker may be killed soon after its first call.
 */
async function wrappedScript(path, url) {
  const scriptPath = `${path}.${SCRIPT_FORMAT}.js`;
  const header = `// ${url}\n`;
  const kept = await readFile(scriptPath, 'utf8').catch(() => undefined);
  if (kept?.startsWith(header)) return kept;
  const wrapped = asScript(await readFile(path, 'utf8'), url);
  if (wrapped === undefined) return undefined;
  await writeAtomic(scriptPath, header + wrapped);
  return header + wrapped;
}

/**
 * Loads the glue of a transpiled component: `{ instantiate, saveCodeCache }`. Call
 * `saveCodeCache()` once the component has been instantiated and used, so the cache holds the
 * functions that were compiled lazily too; it writes only when there was no usable cache.
 */
export async function loadGlue(dir, entry) {
  const path = join(dir, entry);
  const url = pathToFileURL(path).href;
  const cachePath = `${path}.${CACHE_SUFFIX}.v8-cache`;
  const [wrapped, cachedData] = await Promise.all([
    wrappedScript(path, url),
    readFile(cachePath).catch(() => undefined),
  ]);
  if (wrapped === undefined) {
    const module = await import(url);
    return { instantiate: module.instantiate, saveCodeCache: async () => {} };
  }
  const script = new Script(wrapped, { filename: url, ...(cachedData === undefined ? {} : { cachedData }) });
  const stale = cachedData === undefined || script.cachedDataRejected === true;
  const instantiate = script.runInThisContext()();
  let saved = !stale;
  return {
    instantiate,
    async saveCodeCache() {
      if (saved) return;
      saved = true;
      await writeAtomic(cachePath, script.createCachedData());
    },
  };
}
