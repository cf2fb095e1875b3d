import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The dashboard build this run's gateways serve (a folder of the run's own). */
    dashboardFolder: string;
  }
}

/**
 * Vitest global setup of the browser suite: builds the dashboard once (a few seconds) into a folder of
 * this run's own, which every gateway of the suite serves (so a build by anyone else cannot swap files
 * under a running test), and copies it into the package's `dist/ui/` (adding files, deleting none) for
 * the test of the `boxagnts` bin, which serves the build the npm package ships.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(join(tmpdir(), 'boxagnts-dashboard-e2e-'));
  await build({
    configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
    logLevel: 'warn',
    build: { outDir: folder, emptyOutDir: true },
  });
  await cp(folder, fileURLToPath(new URL('../../dist/ui', import.meta.url)), { recursive: true, force: true });
  project.provide('dashboardFolder', folder);
  return async () => {
    await rm(folder, { recursive: true, force: true });
  };
}
