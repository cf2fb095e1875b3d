import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../config/config-error.js';

const BOXAGNTS_WORKSPACE_ERROR_MARKER = Symbol.for('boxagnts.workspace.boxagnts-workspace-error');

/** The files under `.boxagnts/` that only the Rust BoxAgnts writes (our own state there is `secrets.json` and the database). */
export const BOXAGNTS_STATE_MARKERS = [
  'settings.json',
  'auth.json',
  'sessions',
  'cron.config.json',
  'site.config.json',
] as const;

/**
 * `openWorkspace` was pointed at a folder that holds a workspace of the Rust BoxAgnts and no
 * `boxagnts.json`: instead of creating an empty workspace beside it, it refuses and names the import.
 * A {@link ConfigError} (`reason: 'io'`) too, so handlers of configuration errors catch it.
 */
export class BoxAgntsWorkspaceError extends ConfigError {
  readonly [BOXAGNTS_WORKSPACE_ERROR_MARKER] = true;
  /** The BoxAgnts workspace folder. */
  readonly dir: string;
  /** The BoxAgnts files found under `.boxagnts/`. */
  readonly found: readonly string[];
  /** The command that imports it. */
  readonly importCommand: string;

  constructor(dir: string, found: readonly string[]) {
    const importCommand = `boxagnts import ${JSON.stringify(dir)}`;
    super({
      reason: 'io',
      file: join(dir, 'boxagnts.json'),
      detail: `${dir} holds a workspace of the Rust BoxAgnts (.boxagnts/${found.join(', .boxagnts/')}) and no boxagnts.json, so no new workspace was created beside it. Import it first: run \`${importCommand}\` (add --dry-run to see what it would change) or call importBoxAgntsWorkspace(${JSON.stringify(dir)}) from @boxagnts/workspace; then open it again.`,
    });
    this.dir = dir;
    this.found = found;
    this.importCommand = importCommand;
  }
}

/** True for a {@link BoxAgntsWorkspaceError}, even one from another copy of this package. */
export function isBoxAgntsWorkspaceError(error: unknown): error is BoxAgntsWorkspaceError {
  return typeof error === 'object' && error !== null && BOXAGNTS_WORKSPACE_ERROR_MARKER in error;
}

/**
 * The BoxAgnts files of `.boxagnts/` in `dir` (`settings.json`, `auth.json`, `sessions/`,
 * `cron.config.json`, `site.config.json`); empty when the folder holds none, so it is no BoxAgnts workspace.
 */
export async function boxAgntsStateFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of BOXAGNTS_STATE_MARKERS) {
    const stat = await lstat(join(dir, '.boxagnts', name)).catch(() => undefined);
    if (stat !== undefined) found.push(name);
  }
  return found;
}
