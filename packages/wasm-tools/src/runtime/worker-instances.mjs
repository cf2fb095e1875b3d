// Loading, compiling and caching component instances inside one worker process. A transpiled
// component's JS module and its core modules are loaded and compiled once per worker; instances
// of function components are cached per capability key (component, root, read-only, env, path policy) in a
// small LRU, so warm calls skip the 25-85 ms instantiation. Guest globals persist on a warm
// instance. Command components are instantiated fresh per call.
import { createCapabilities } from './worker-capabilities.mjs';
import { loadComponent } from './worker-component-loader.mjs';

const MAX_WARM_INSTANCES = 8;

/** capability key -> { exports, capabilities } (Map order = least recently used first) */
const warm = new Map();

/** Creates a fresh instance of `job.component` with the job's capabilities. */
export async function createInstance(job) {
  const loaded = await loadComponent(job.component);
  const capabilities = await createCapabilities({
    imports: loaded.imports,
    root: job.root,
    readOnly: job.readOnly,
    env: job.env,
    args: job.args ?? [],
    maxOutputBytes: job.maxOutputBytes,
    policy: job.policy,
    http: job.http,
  });
  const exports = await loaded.instantiate((name) => loaded.getCoreModule(name), capabilities.imports);
  // After the call that needed this instance has run: the cache then holds what it compiled.
  setImmediate(() => loaded.saveCodeCache().catch(() => {}));
  return { exports, capabilities };
}

function capabilityKey(job) {
  return JSON.stringify([
    job.component.hash,
    job.root ?? null,
    job.readOnly,
    Object.entries(job.env).sort(),
    job.policy ?? null,
  ]);
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
