// The worker processes' entries (src/runtime/worker.mjs for components, worker-http.mjs for an HTTP
// component) bundled into one file each, with picomatch inlined. A forked worker otherwise imports
// about 15 module files through Node's ESM loader and picomatch through the CommonJS loader before
// it is ready, which is most of a cold start's time above a bare fork (README, "Cold start").
// The component worker is bundled as CommonJS (worker.cjs): a process whose entry is an ES module
// starts Node's ESM loader before its first line runs, which costs as much again as the import
// (a bare fork answering one call: 200 ms with a .cjs entry, 286 ms with .mjs, at load 15). Its
// dynamic imports (a component's glue when it is not wrapped as a script, preview2-shim for
// components that need it) stay import() calls and load the ESM loader only then.
// Used by the build (prepare-dist.mjs writes dist/runtime/), by the test that runs the bundled
// worker (src/runtime/worker-bundle.test.ts) and by the cold-start bench (bench/runtime.ts), so all
// three fork the same file.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The entries forked by the runtime: source file, bundle name (what the runtime looks up), format. */
export const WORKER_ENTRIES = [
  { source: 'worker.mjs', bundle: 'worker.cjs', format: 'cjs' },
  { source: 'worker-http.mjs', bundle: 'worker-http.mjs', format: 'esm' },
];

/**
 * Copied beside the bundles as it is: the entry the pool forks to run worker.cjs with V8's code
 * cache (src/runtime/worker-cached-entry.cjs says how).
 */
export const CACHED_ENTRY = 'worker-cached-entry.cjs';

/**
 * Bundles every worker entry into `outDir` (one self-contained file each, named as in WORKER_ENTRIES).
 * preview2-shim stays an import: it is loaded only for components that need it (and by the
 * HTTP host), from the package's own dependency.
 */
export async function bundleWorkers(outDir) {
  const { build } = await import('esbuild');
  await mkdir(outDir, { recursive: true });
  for (const { source, bundle, format } of WORKER_ENTRIES) {
    const result = await build({
      entryPoints: [join(PACKAGE_DIR, 'src', 'runtime', source)],
      absWorkingDir: PACKAGE_DIR,
      bundle: true,
      format,
      platform: 'node',
      target: 'node20',
      external: ['@bytecodealliance/preview2-shim', '@bytecodealliance/preview2-shim/*'],
      legalComments: 'eof',
      write: false,
      logLevel: 'silent',
    });
    await writeFile(join(outDir, bundle), result.outputFiles[0].text);
  }
  await copyFile(join(PACKAGE_DIR, 'src', 'runtime', CACHED_ENTRY), join(outDir, CACHED_ENTRY));
  return WORKER_ENTRIES.map(({ bundle }) => join(outDir, bundle));
}
