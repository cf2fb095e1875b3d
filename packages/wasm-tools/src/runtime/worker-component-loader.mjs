// Loading a transpiled component inside a worker process: its JS glue evaluated (from V8's code
// cache, worker-code-cache.mjs) and its core modules compiled, once per worker. It imports only
// Node built-ins, so worker.mjs can start compiling a preloaded component while the rest of the
// worker (capabilities, filesystem, path policy) is still being imported. Plain JS: this file runs
// in the forked worker (see worker.mjs).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadGlue } from './worker-code-cache.mjs';

/** hash -> Promise<{ imports, instantiate, saveCodeCache, compiled, getCoreModule }> */
const components = new Map();

function compileCoreModule(dir, name) {
  return readFile(join(dir, name)).then((bytes) => WebAssembly.compile(bytes));
}

/**
 * Imports a component's JS glue and compiles its core modules, all at once: the compiles run on
 * V8's background threads while the 0.8 MB glue is parsed, instead of one after the other on
 * first use.
 */
async function startLoading(component) {
  const compiled = new Map();
  const imports = readImports(component.dir);
  const names = (await readdir(component.dir)).filter((name) => name.endsWith('.wasm'));
  for (const name of names) {
    const promise = compileCoreModule(component.dir, name);
    promise.catch(() => {});
    compiled.set(name, promise);
  }
  const glue = await loadGlue(component.dir, component.entry);
  return {
    imports: await imports,
    instantiate: glue.instantiate,
    saveCodeCache: glue.saveCodeCache,
    compiled: () => Promise.all(compiled.values()),
    getCoreModule(name) {
      let promise = compiled.get(name);
      if (promise === undefined) {
        promise = compileCoreModule(component.dir, name);
        compiled.set(name, promise);
      }
      return promise;
    },
  };
}

/**
 * The interfaces the component imports (`interface.json`, written with the glue by the host's
 * transpile cache), or undefined when it cannot be read: then the instance gets the shim.
 */
async function readImports(dir) {
  try {
    const { imports } = JSON.parse(await readFile(join(dir, 'interface.json'), 'utf8'));
    return Array.isArray(imports) && imports.every((name) => typeof name === 'string') ? imports : undefined;
  } catch {
    return undefined;
  }
}

/** The loaded component (glue evaluated, core modules compiling), loaded once per worker. */
export function loadComponent(component) {
  let loaded = components.get(component.hash);
  if (loaded === undefined) {
    loaded = startLoading(component);
    components.set(component.hash, loaded);
    loaded.catch(() => components.delete(component.hash));
  }
  return loaded;
}

/**
 * Loads a component before its first call: the glue is evaluated (from V8's code cache when
 * there is one) and the core modules compiled, so a call that comes later only instantiates.
 * Failures are left for the call to report.
 */
export async function preloadComponent(component) {
  try {
    await (await loadComponent(component)).compiled();
  } catch {
    // The first call loads it again and reports what went wrong.
  }
}
