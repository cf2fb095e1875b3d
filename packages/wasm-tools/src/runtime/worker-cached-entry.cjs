// The forked entry of the built component worker when the runtime has a cache folder: it runs the
// one-file CommonJS bundle (dist/runtime/worker.cjs, argv[2]) as Node's CommonJS loader would, but
// compiled with V8's code cache kept in the cache folder (argv[3], a file named by the host after
// the bundle's SHA-256, the Node version and the worker's flags). V8 checks a cache only against
// the source's length, its version and flags, so the host's content hash in the file name is what
// keeps a cache from another bundle out. A cache V8 rejects (corrupt, truncated, foreign) is
// ignored and written anew. The cache is written once, after the worker's first call answered
// (worker.mjs calls the hook below), so it holds the functions compiled lazily for that call too.
// Without a cache file argument, or when the cache cannot be read, the bundle is compiled as usual.
'use strict';
const { readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname } = require('node:path');
const vm = require('node:vm');

const bundlePath = process.argv[2];
const cachePath = process.argv[3];
const source = readFileSync(bundlePath, 'utf8');
let cachedData;
if (cachePath !== undefined) {
  try {
    cachedData = readFileSync(cachePath);
  } catch {
    cachedData = undefined;
  }
}
const script = new vm.Script(Module.wrap(source), {
  filename: bundlePath,
  ...(cachedData === undefined ? {} : { cachedData }),
  // The bundle's import() calls (a component's glue that is not wrapped as a script,
  // preview2-shim) resolve as they would in the bundle loaded by Node itself.
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
const usable = cachedData !== undefined && script.cachedDataRejected !== true;
const bundle = new Module(bundlePath, module);
bundle.filename = bundlePath;
bundle.paths = Module._nodeModulePaths(dirname(bundlePath));
bundle.loaded = true;

let saved = usable || cachePath === undefined;
/** Writes the code cache once (atomically: a temp file renamed over it). */
globalThis[Symbol.for('boxagnts.worker.saveCodeCache')] = () => {
  if (saved) return;
  saved = true;
  const temp = `${cachePath}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, cachePath);
  } catch {
    rmSync(temp, { force: true });
  }
};

script
  .runInThisContext()
  .call(bundle.exports, bundle.exports, Module.createRequire(bundlePath), bundle, bundlePath, dirname(bundlePath));
