import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { projects } from './vitest.workspace.ts';

const root = dirname(fileURLToPath(import.meta.url));

/**
 * `@boxagnts/<name>` -> `packages/<name>/src/index.ts`, so tests need no build; and each subpath export
 * with a `@boxagnts/source` condition (`@boxagnts/api/adapter-kit` -> `packages/api/src/adapter-kit.ts`).
 * Subpaths come first: an alias also matches `<find>/…`, and the first match wins.
 */
function sourceAliases(): Record<string, string> {
  const subpaths: Record<string, string> = {};
  const aliases: Record<string, string> = {};
  const dir = join(root, 'packages');
  for (const name of readdirSync(dir)) {
    const manifest = join(dir, name, 'package.json');
    if (existsSync(manifest)) {
      const exports =
        (JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown> }).exports ?? {};
      for (const [subpath, conditions] of Object.entries(exports)) {
        const source = (conditions as { '@boxagnts/source'?: unknown } | null)?.['@boxagnts/source'];
        if (subpath.startsWith('./') && typeof source === 'string') {
          subpaths[`@boxagnts/${name}/${subpath.slice(2)}`] = join(dir, name, source);
        }
      }
    }
    const entry = join(dir, name, 'src', 'index.ts');
    if (existsSync(entry)) aliases[`@boxagnts/${name}`] = entry;
  }
  return { ...subpaths, ...aliases };
}

export default defineConfig({
  resolve: { alias: sourceAliases() },
  test: {
    projects,
    // The JSON report is what CI counts (scripts/report-counts.mjs); the default reporter is for people.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-report.json' },
    // Two workers on the 2-core CI machine: most test time is spent waiting on child processes, PostgreSQL,
    // sockets and timers, so a second worker cut the workspace suite from 229 s to 143 s (and the whole suite
    // well below the one-worker default of vitest, availableParallelism - 1). Timing-sensitive tests keep a
    // margin of several hundred ms for this load.
    maxWorkers: 2,
    // One module graph per worker, not per test file: importing the sources again for each of the ~510 files
    // was a third of the suite's CPU (import 342 s summed against 937 s of tests, 2026-12-02), and for the
    // query/tools/tools-manager projects alone 187 s -> 62 s wall. Every project passes this way; a test that
    // leaves global state behind (a listener, an env var, a patched global) must restore it in its own hooks.
    // The browser suite (vitest.workspace.ts) keeps isolation.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
