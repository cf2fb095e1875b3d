import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProjectInlineConfiguration } from 'vitest/config';

/**
 * One vitest project per workspace package (packages/*, extensions/*, examples/*).
 *
 * vitest 4 no longer reads this file on its own; the root `vitest.config.ts` imports
 * `projects` from here into `test.projects`, so this list is the real configuration.
 * Every project `extends` the root config so it inherits the alias that maps
 * `@boxagnts/<name>` to `packages/<name>/src/index.ts`: tests run against the sources.
 */
const root = dirname(fileURLToPath(import.meta.url));

function packageDirs(group: string): string[] {
  const dir = join(root, group);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'package.json')))
    .map((entry) => `${group}/${entry.name}`)
    .sort();
}

export const projectDirs: string[] = [
  ...packageDirs('packages'),
  ...packageDirs('extensions'),
  ...packageDirs('examples'),
];

export const projects: TestProjectInlineConfiguration[] = [
  ...projectDirs.map((dir) => ({
    extends: true as const,
    test: {
      name: dir.replace(/^(packages|extensions|examples)\//, ''),
      root: join(root, dir),
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    },
  })),
  // The dashboard's own logic (pure functions of its pages), in Node.
  {
    extends: true as const,
    test: { name: 'dashboard-unit', root: join(root, 'packages/gateway/dashboard'), include: ['src/**/*.test.ts'] },
  },
  // The gateway's dashboard in a real browser (Debian's chromium through playwright-core); builds it first.
  {
    extends: true as const,
    test: {
      name: 'dashboard',
      root: join(root, 'packages/gateway/dashboard'),
      include: ['e2e/**/*.test.ts'],
      globalSetup: ['e2e/build-dashboard.ts'],
      // Each file drives its own browser and gateway; keep their module state apart.
      isolate: true,
      // One browser and one gateway per file (files share the two workers with the other projects: run alone
      // at the end, the suite was a 2.5-minute tail on one worker).
      testTimeout: 60_000,
      hookTimeout: 60_000,
      // A page's first load fetches its chunk; on a loaded 2-core machine that takes seconds, not the default 1.
      expect: { poll: { timeout: 15_000, interval: 100 } },
    },
  },
  // The repository's own tooling (the dependency checker).
  { extends: true as const, test: { name: 'repo', root: join(root, 'scripts'), include: ['**/*.test.ts'] } },
];

export default projects;
