import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The @boxagnts/api package folder, found by walking up from this module: works both from the
 * sources and from the bundled client in `bench/.bench/`.
 */
export function apiPackageDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === '@boxagnts/api'
    ) {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('bench: cannot find the @boxagnts/api package folder above the bench');
    dir = parent;
  }
}

/**
 * `shared/fixtures/provider-streams` beside the clone (read-only, never copied in), or undefined on a
 * machine where it is absent.
 */
export function providerStreamsDir(): string | undefined {
  const dir = join(apiPackageDir(), '..', '..', '..', 'shared', 'fixtures', 'provider-streams');
  return existsSync(dir) ? dir : undefined;
}
