import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/**
 * Vitest global setup of the browser suite: builds the dashboard once (about 5 s) into the gateway's
 * `dist/ui/`, so the gateway under test serves what the npm package ships.
 */
export default async function setup(): Promise<void> {
  await build({
    configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
    logLevel: 'warn',
  });
}
