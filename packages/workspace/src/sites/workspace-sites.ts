import { lstat, mkdir, readdir, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { StoreError } from '../store/store-error.js';
import type { Workspace } from '../workspace/workspace.js';
import { hashSiteCredentials, parseSiteCredentials, type SiteCredentials, siteAuthSecretName } from './site-auth.js';
import { checkSiteName, isSiteName } from './site-name.js';

/** One site as the folder and the store see it together. */
export interface SiteInfo {
  name: string;
  /** The absolute folder served for this site. */
  folder: string;
  createdAt: number;
  updatedAt: number;
  /** The basic-auth user when the site asks for a login. */
  authUser: string | undefined;
  /** Whether unknown paths answer with `index.html` (config `gateway.sites.spa`). */
  spa: boolean;
}

/** Site management over a workspace's sites folder, its `sites` table and its secrets file. */
export interface WorkspaceSites {
  /** The folder with one sub-folder per site (config `gateway.sites.folder`, default `root/sites`). */
  readonly folder: string;
  /** Every site folder (a real directory with a valid name), by name; rows are added or dropped to match. */
  list(): Promise<SiteInfo[]>;
  get(name: string): Promise<SiteInfo | undefined>;
  /**
   * Creates the site's folder (empty: it serves a listing until it has an `index.html`) and its row;
   * a folder an agent already wrote is adopted. `conflict` when the site is already recorded.
   */
  create(name: string, options?: { spa?: boolean }): Promise<SiteInfo>;
  /**
   * Deletes the site: its row, its credentials, its SPA entry and its folder with everything in it
   * (a folder that is a symbolic link loses only the link). `keepFiles` keeps the folder, which then
   * goes on being served. `not-found` when there is neither a folder nor a row.
   */
  delete(name: string, options?: { keepFiles?: boolean }): Promise<void>;
  /** Requires a basic-auth login for the site; only a salted scrypt hash goes into the secrets file. */
  setAuth(name: string, user: string, password: string): Promise<void>;
  /** Removes the login; false when there was none. */
  clearAuth(name: string): Promise<boolean>;
  /** The stored credentials of a site, for the server; undefined when it has no login. */
  credentials(name: string): Promise<SiteCredentials | 'invalid' | undefined>;
}

async function isSiteFolder(path: string): Promise<boolean> {
  const stat = await lstat(path).catch(() => undefined);
  return stat?.isDirectory() === true;
}

/**
 * The sites of a workspace. The folder is the source of truth: a folder an agent's write tool made
 * under `root/sites/<name>/` is a site at once (no restart, no API call), and the `sites` table
 * records when each was first seen and last changed through this API.
 *
 * @example
 * const sites = workspaceSites(workspace);
 * await sites.create('docs');
 * await sites.setAuth('docs', 'alice', 'correct horse battery staple');
 */
export function workspaceSites(workspace: Workspace): WorkspaceSites {
  const folderOf = (name: string) => join(workspace.config.gateway.sites.folder, name);
  const spaOf = (name: string) => workspace.config.gateway.sites.spa.includes(name);
  const authUser = async (name: string) => {
    const secret = await workspace.secrets.get(siteAuthSecretName(name));
    if (secret === undefined) return undefined;
    return parseSiteCredentials(secret.reveal())?.user ?? '(unreadable credentials: set them again)';
  };
  const info = async (name: string, row: { createdAt: number; updatedAt: number }): Promise<SiteInfo> => ({
    name,
    folder: folderOf(name),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    authUser: await authUser(name),
    spa: spaOf(name),
  });
  const setSpa = async (name: string, on: boolean) => {
    const current = workspace.config.gateway.sites.spa;
    if (current.includes(name) === on) return;
    const next = on ? [...current, name] : current.filter((entry) => entry !== name);
    await workspace.setConfigValue(['gateway', 'sites', 'spa'], next.length === 0 ? undefined : next);
  };
  const sites: WorkspaceSites = {
    get folder() {
      return workspace.config.gateway.sites.folder;
    },
    async list() {
      const entries = await readdir(workspace.config.gateway.sites.folder, { withFileTypes: true }).catch(
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return [];
          throw error;
        },
      );
      const names = entries.filter((entry) => entry.isDirectory() && isSiteName(entry.name)).map((entry) => entry.name);
      const rows = new Map((await workspace.store.sites.list()).map((row) => [row.name, row]));
      const listed: SiteInfo[] = [];
      for (const name of names.sort()) {
        let row: { createdAt: number; updatedAt: number } | undefined = rows.get(name);
        if (row === undefined) {
          // A folder made outside the API (an agent's write tool): record it now.
          const stat = await lstat(folderOf(name));
          row = await workspace.store.sites
            .create({ name, path: folderOf(name), createdAt: Math.round(stat.birthtimeMs || stat.mtimeMs) })
            .catch(
              async () => (await workspace.store.sites.get(name)) ?? { createdAt: Date.now(), updatedAt: Date.now() },
            );
        }
        listed.push(await info(name, row));
        rows.delete(name);
      }
      // Rows whose folder is gone (deleted by hand) describe nothing: drop them.
      for (const name of rows.keys()) await workspace.store.sites.delete(name);
      return listed;
    },
    async get(name) {
      if (!isSiteName(name) || !(await isSiteFolder(folderOf(name)))) return undefined;
      const row =
        (await workspace.store.sites.get(name)) ??
        (await workspace.store.sites.create({ name, path: folderOf(name) }).catch(() => undefined));
      return info(name, row ?? { createdAt: Date.now(), updatedAt: Date.now() });
    },
    async create(name, options = {}) {
      checkSiteName(name);
      const folder = folderOf(name);
      const existing = await lstat(folder).catch(() => undefined);
      if (existing !== undefined && !existing.isDirectory()) {
        throw new StoreError({
          reason: 'conflict',
          message: `${folder} exists and is not a folder: remove it or pick another site name.`,
        });
      }
      if ((await workspace.store.sites.get(name)) !== undefined && existing !== undefined) {
        throw new StoreError({
          reason: 'conflict',
          message: `There is already a site "${name}": pick another name or delete it first.`,
        });
      }
      await mkdir(folder, { recursive: true });
      // A stale row (its folder was removed by hand) is replaced.
      await workspace.store.sites.delete(name);
      const row = await workspace.store.sites.create({ name, path: folder });
      if (options.spa !== undefined) await setSpa(name, options.spa);
      return info(name, row);
    },
    async delete(name, options = {}) {
      checkSiteName(name);
      const folder = folderOf(name);
      const stat = await lstat(folder).catch(() => undefined);
      const hadRow = await workspace.store.sites.delete(name);
      if (stat === undefined && !hadRow) {
        throw new StoreError({
          reason: 'not-found',
          message: `There is no site "${name}"; list the sites to see their names.`,
        });
      }
      await workspace.secrets.delete(siteAuthSecretName(name));
      await setSpa(name, false);
      if (options.keepFiles === true || stat === undefined) return;
      if (stat.isSymbolicLink()) await unlink(folder);
      else await rm(folder, { recursive: true, force: true });
    },
    async setAuth(name, user, password) {
      checkSiteName(name);
      if ((await sites.get(name)) === undefined) {
        throw new StoreError({ reason: 'not-found', message: `There is no site "${name}": create it first.` });
      }
      await workspace.secrets.set(siteAuthSecretName(name), await hashSiteCredentials(user, password));
      await workspace.store.sites.touch(name);
    },
    async clearAuth(name) {
      checkSiteName(name);
      const removed = await workspace.secrets.delete(siteAuthSecretName(name));
      if (removed) await workspace.store.sites.touch(name);
      return removed;
    },
    async credentials(name) {
      if (!isSiteName(name)) return undefined;
      const secret = await workspace.secrets.get(siteAuthSecretName(name));
      if (secret === undefined) return undefined;
      return parseSiteCredentials(secret.reveal()) ?? 'invalid';
    },
  };
  return sites;
}
