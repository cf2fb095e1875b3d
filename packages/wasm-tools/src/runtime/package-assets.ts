import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = '@boxagnts/wasm-tools';

/**
 * The folder of the installed @boxagnts/wasm-tools that this module belongs to, or undefined when
 * the module is not inside it (bundled into an application's own file). The sandbox loads files
 * from that folder at run time (the worker-process entry `worker*.mjs`, worker-thread scripts,
 * the WIT and the fs-tools guest), which bundlers do not copy.
 */
export function ownPackageFolder(moduleUrl: string | undefined = import.meta.url): string | undefined {
  // A CommonJS bundle has no import.meta.url at all.
  if (typeof moduleUrl !== 'string' || !moduleUrl.startsWith('file:')) return undefined;
  let dir = dirname(fileURLToPath(moduleUrl));
  for (let depth = 0; depth < 8; depth++) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return dir;
      } catch {
        // An unreadable package.json is not ours.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

/**
 * What to tell the user when a run-time file of the package is missing: bundled into an app (then
 * the fix is to mark the package external), or a broken install (reinstall).
 */
export function missingAssetMessage(
  what: string,
  lookedIn: readonly string[],
  moduleUrl: string | undefined = import.meta.url,
): { bundled: boolean; message: string } {
  const bundled = ownPackageFolder(moduleUrl) === undefined;
  const where = typeof moduleUrl === 'string' && moduleUrl.startsWith('file:') ? fileURLToPath(moduleUrl) : 'a bundle';
  const message = bundled
    ? `${PACKAGE_NAME} was bundled into ${where}, but the sandbox loads ${what} from its own package folder at run time, and bundlers do not copy those files. Mark the package external so it loads from node_modules (esbuild: --external:${PACKAGE_NAME} or packages: 'external'; webpack: externals; Vite/Rollup: external and ssr.external) and install it beside your bundle.`
    : `${what} is missing from ${PACKAGE_NAME} (looked in ${lookedIn.join(', ')}): reinstall the package.`;
  return { bundled, message };
}
