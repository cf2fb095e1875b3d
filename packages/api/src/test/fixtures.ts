import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The recorded provider streams live in `../shared/fixtures/provider-streams`, beside the
 * repository, read-only. They are never copied into the project; tests that need them skip
 * themselves with this reason when the folder is absent (a clone elsewhere).
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Absolute path of `shared/fixtures/provider-streams`, or undefined where it is absent. */
export const providerStreamsDir: string | undefined = (() => {
  const dir = join(repoRoot, '..', 'shared', 'fixtures', 'provider-streams');
  return existsSync(dir) ? dir : undefined;
})();

/** Why fixture tests are skipped on this machine (for `describe.skipIf` titles). */
export const fixturesSkipReason = 'skipped: ../shared/fixtures/provider-streams is not beside this clone';

/** Path of one recorded file, e.g. `fixture('anthropic-messages/anthropic-text.chunks.txt')`. */
export function fixture(relativePath: string): string {
  if (!providerStreamsDir) throw new Error(fixturesSkipReason);
  return join(providerStreamsDir, relativePath);
}
