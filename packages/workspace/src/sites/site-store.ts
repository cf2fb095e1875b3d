import { randomUUID } from 'node:crypto';
import type { StoreBackend } from '../store/store-backend.js';
import type { SitesTable } from '../store/store-database.js';
import { StoreError, toStoreError } from '../store/store-error.js';
import { checkSiteName } from './site-name.js';

/** A site's row: the metadata the store keeps about a folder the gateway serves. */
export interface SiteRecord {
  id: string;
  /** The DNS-label name: the folder name and the host name `<name>.<domain>`. */
  name: string;
  /** The site's folder as the creator gave it (the gateway serves `<sites folder>/<name>`). */
  path: string;
  createdAt: number;
  updatedAt: number;
}

/**
 * The `sites` table: create, get, list and delete site rows. It only records metadata; the folders
 * themselves are managed by `workspaceSites` (the folder is the source of truth, see there).
 */
export interface SiteStore {
  /** Adds a row; a `conflict` StoreError when the name is taken, `invalid-input` for a bad name. */
  create(site: { name: string; path: string; createdAt?: number }): Promise<SiteRecord>;
  get(name: string): Promise<SiteRecord | undefined>;
  /** Every row, by name. */
  list(): Promise<SiteRecord[]>;
  /** Sets `updated_at` (and the path when given); false when there is no such row. */
  touch(name: string, changes?: { path?: string; updatedAt?: number }): Promise<boolean>;
  /** Removes the row; false when there was none. */
  delete(name: string): Promise<boolean>;
}

function record(row: SitesTable): SiteRecord {
  return {
    id: row.id,
    name: row.name,
    path: row.path,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** The {@link SiteStore} over one opened backend (SQLite or PostgreSQL). */
export function createSiteStore(backend: StoreBackend, now: () => number = Date.now): SiteStore {
  return {
    async create(site) {
      const name = checkSiteName(site.name);
      if (typeof site.path !== 'string' || site.path === '' || site.path.length > 4096 || site.path.includes('\0')) {
        throw new StoreError({
          reason: 'invalid-input',
          message: 'A site path must be a non-empty string of at most 4096 characters without NUL.',
        });
      }
      const time = site.createdAt ?? now();
      const row: SitesTable = { id: randomUUID(), name, path: site.path, created_at: time, updated_at: time };
      try {
        return await backend.write(async (transaction) => {
          const existing = await transaction
            .selectFrom('sites')
            .select('id')
            .where('name', '=', name)
            .executeTakeFirst();
          if (existing !== undefined) {
            throw new StoreError({
              reason: 'conflict',
              message: `There is already a site "${name}": pick another name or delete it first.`,
            });
          }
          await transaction.insertInto('sites').values(row).execute();
          return record(row);
        });
      } catch (error) {
        throw toStoreError(error, `Creating site "${name}"`);
      }
    },
    async get(name) {
      if (typeof name !== 'string') return undefined;
      try {
        const row = await backend.database.selectFrom('sites').selectAll().where('name', '=', name).executeTakeFirst();
        return row === undefined ? undefined : record(row);
      } catch (error) {
        throw toStoreError(error, `Reading site "${name}"`);
      }
    },
    async list() {
      try {
        const rows = await backend.database.selectFrom('sites').selectAll().orderBy('name').execute();
        return rows.map(record);
      } catch (error) {
        throw toStoreError(error, 'Listing sites');
      }
    },
    async touch(name, changes = {}) {
      try {
        const result = await backend.write((transaction) =>
          transaction
            .updateTable('sites')
            .set({
              updated_at: changes.updatedAt ?? now(),
              ...(changes.path === undefined ? {} : { path: changes.path }),
            })
            .where('name', '=', name)
            .executeTakeFirst(),
        );
        return Number(result.numUpdatedRows) > 0;
      } catch (error) {
        throw toStoreError(error, `Updating site "${name}"`);
      }
    },
    async delete(name) {
      try {
        const result = await backend.write((transaction) =>
          transaction.deleteFrom('sites').where('name', '=', name).executeTakeFirst(),
        );
        return Number(result.numDeletedRows) > 0;
      } catch (error) {
        throw toStoreError(error, `Deleting site "${name}"`);
      }
    },
  };
}
