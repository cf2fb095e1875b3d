// Loading, compiling and caching component instances inside one worker process. A transpiled
// component's JS module and its core modules are loaded and compiled once per worker; instances
// of function components are cached per capability key (component, root, read-only, env) in a
// small LRU, so warm calls skip the 25-85 ms instantiation. Guest globals persist on a warm
// instance. Command components are instantiated fresh per call.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCapabilities } from './worker-capabilities.mjs';

const MAX_WARM_INSTANCES = 8;

/** hash -> { instantiate, getCoreModule } */
const components = new Map();
/** capability key -> { exports, capabilities } (Map order = least recently used first) */
const warm = new Map();

async function loadComponent(component) {
  let loaded = components.get(component.hash);
  if (loaded !== undefined) return loaded;
  const module = await import(pathToFileURL(join(component.dir, component.entry)).href);
  const compiled = new Map();
  loaded = {
    instantiate: module.instantiate,
    getCoreModule(name) {
      let promise = compiled.get(name);
      if (promise === undefined) {
        promise = readFile(join(component.dir, name)).then((bytes) => WebAssembly.compile(bytes));
        compiled.set(name, promise);
      }
      return promise;
    },
  };
  components.set(component.hash, loaded);
  return loaded;
}

/** Creates a fresh instance of `job.component` with the job's capabilities. */
export async function createInstance(job) {
  const loaded = await loadComponent(job.component);
  const capabilities = createCapabilities({
    root: job.root,
    readOnly: job.readOnly,
    env: job.env,
    args: job.args ?? [],
    maxOutputBytes: job.maxOutputBytes,
  });
  const exports = await loaded.instantiate((name) => loaded.getCoreModule(name), capabilities.imports);
  return { exports, capabilities };
}

function capabilityKey(job) {
  return JSON.stringify([job.component.hash, job.root ?? null, job.readOnly, Object.entries(job.env).sort()]);
}

/** A warm instance for the job's capability key, created (and the LRU trimmed) when missing. */
export async function warmInstance(job) {
  const key = capabilityKey(job);
  const cached = warm.get(key);
  if (cached !== undefined) {
    warm.delete(key);
    warm.set(key, cached);
    return { ...cached, key, fresh: false };
  }
  const created = await createInstance(job);
  warm.set(key, created);
  while (warm.size > MAX_WARM_INSTANCES) {
    const oldest = warm.keys().next().value;
    warm.delete(oldest);
  }
  return { ...created, key, fresh: true };
}

/** Drops a warm instance (after a trap or exit it cannot be entered again). */
export function discardInstance(key) {
  warm.delete(key);
}

/** The `boxagnts:tool/tool` export of an instance, whatever name the transpiler gave it. */
export function toolExport(exports) {
  if (exports.tool !== undefined) return exports.tool;
  for (const [name, value] of Object.entries(exports)) {
    if (name.startsWith('boxagnts:tool/tool')) return value;
  }
  throw new Error('The component does not export boxagnts:tool/tool: build it for the function-tool world.');
}

/** The `wasi:cli/run` export of an instance. */
export function runExport(exports) {
  if (exports.run !== undefined) return exports.run;
  for (const [name, value] of Object.entries(exports)) {
    if (name.startsWith('wasi:cli/run')) return value;
  }
  throw new Error('The component does not export wasi:cli/run: build it as a command (wasi:cli/command world).');
}
