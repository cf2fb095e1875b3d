import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of the built dashboard: `dist/ui/` of this package, found by walking up from this
 * module to the package's `package.json` (the module sits in `src/dashboard/` when run from source and
 * is bundled into `dist/` when installed).
 */
export function defaultDashboardFolder(from: string = fileURLToPath(import.meta.url)): string | undefined {
  let dir = dirname(from);
  for (let depth = 0; depth < 6; depth++) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === '@boxagnts/gateway') {
          return join(dir, 'dist', 'ui');
        }
      } catch {
        // A package.json that is not JSON is not ours: keep walking.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}
