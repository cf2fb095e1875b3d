// The worker processes' entries (src/runtime/worker.mjs for components, worker-http.mjs for an HTTP
// component) bundled into one file each, with picomatch inlined. A forked worker otherwise imports
// about 15 module files through Node's ESM loader and picomatch through the CommonJS loader before
// it is ready, which is most of a cold start's time above a bare fork (README, "Cold start").
// Used by the build (prepare-dist.mjs writes dist/runtime/), by the test that runs the bundled
// worker (src/runtime/worker-bundle.test.ts) and by the cold-start bench (bench/runtime.ts), so all
// three fork the same file.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The entries forked by the runtime, by the name the runtime looks them up under. */
export const WORKER_ENTRIES = ['worker.mjs', 'worker-http.mjs'];

/**
 * Bundles every worker entry into `outDir` (one self-contained .mjs each, same file names).
 * preview2-shim stays an import: it is loaded only for components that need it (and by the
 * HTTP host), from the package's own dependency.
 */
export async function bundleWorkers(outDir) {
  const { build } = await import('esbuild');
  await mkdir(outDir, { recursive: true });
  for (const name of WORKER_ENTRIES) {
    const result = await build({
      entryPoints: [join(PACKAGE_DIR, 'src', 'runtime', name)],
      absWorkingDir: PACKAGE_DIR,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: ['@bytecodealliance/preview2-shim', '@bytecodealliance/preview2-shim/*'],
      legalComments: 'eof',
      write: false,
      logLevel: 'silent',
    });
    await writeFile(join(outDir, name), result.outputFiles[0].text);
  }
  return WORKER_ENTRIES.map((name) => join(outDir, name));
}
