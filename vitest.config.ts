import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { projects } from './vitest.workspace.ts';

const root = dirname(fileURLToPath(import.meta.url));

/** `@boxagnts/<name>` -> `packages/<name>/src/index.ts`, so tests need no build. */
function sourceAliases(): Record<string, string> {
  const aliases: Record<string, string> = {};
  const dir = join(root, 'packages');
  for (const name of readdirSync(dir)) {
    const entry = join(dir, name, 'src', 'index.ts');
    if (existsSync(entry)) aliases[`@boxagnts/${name}`] = entry;
  }
  return aliases;
}

export default defineConfig({
  resolve: { alias: sourceAliases() },
  test: {
    projects,
    // The JSON report is what CI counts (scripts/report-counts.mjs); the default reporter is for people.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-report.json' },
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
