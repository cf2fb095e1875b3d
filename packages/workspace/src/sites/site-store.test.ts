import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/open-store.js';
import { isStoreError } from '../store/store-error.js';
import type { WorkspaceStore } from '../store/store-types.js';

/** The server's maintenance database; override with BOXAGNTS_TEST_POSTGRES_URL. */
const adminUrl = process.env.BOXAGNTS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `boxagnts_sites_${process.pid}_${randomBytes(4).toString('hex')}`;

async function admin(statement: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query(statement);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const postgresMissing = await admin('SELECT 1');
if (postgresMissing !== undefined) {
  console.warn(`PostgreSQL site store tests skipped: no server answers at ${adminUrl} (${postgresMissing}).`);
}

// One contract, run against both stores.
function siteStoreContract(kind: string, open: () => Promise<WorkspaceStore>, close: () => Promise<void>) {
  describe(`store.sites on ${kind}`, () => {
    let store: WorkspaceStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store.close();
      await close();
    });

    it('creates, gets, lists (by name), touches and deletes rows', async () => {
      const made = await store.sites.create({ name: 'docs', path: '/ws/root/sites/docs', createdAt: 1000 });
      expect(made).toMatchObject({ name: 'docs', path: '/ws/root/sites/docs', createdAt: 1000, updatedAt: 1000 });
      await store.sites.create({ name: 'app', path: '/ws/root/sites/app' });
      expect((await store.sites.list()).map((row) => row.name)).toEqual(['app', 'docs']);
      expect(await store.sites.get('docs')).toEqual(made);
      expect(await store.sites.touch('docs', { updatedAt: 5000 })).toBe(true);
      expect((await store.sites.get('docs'))?.updatedAt).toBe(5000);
      expect(await store.sites.touch('nothing')).toBe(false);
      expect(await store.sites.delete('docs')).toBe(true);
      expect(await store.sites.delete('docs')).toBe(false);
      expect(await store.sites.get('docs')).toBeUndefined();
    });

    it('refuses a taken name with a conflict', async () => {
      await store.sites.create({ name: 'taken', path: '/x' });
      const error = await store.sites.create({ name: 'taken', path: '/y' }).catch((caught: unknown) => caught);
      expect(isStoreError(error) && error.reason).toBe('conflict');
      expect((await store.sites.get('taken'))?.path).toBe('/x');
    });

    it.each([
      '',
      'Docs',
      '-docs',
      'docs-',
      'my.site',
      '../etc',
      'a/b',
      'a\\b',
      'x'.repeat(64),
      'caf\u00e9',
      'a\u0000b',
    ])('refuses the site name %j with a clear invalid-input error', async (name) => {
      const error = await store.sites.create({ name, path: '/x' }).catch((caught: unknown) => caught);
      expect(isStoreError(error) && error.reason).toBe('invalid-input');
      expect((error as Error).message).toMatch(/lowercase letters, digits or "-"/);
    });

    it('accepts a 63-character label', async () => {
      const name = `a${'b'.repeat(61)}c`;
      expect((await store.sites.create({ name, path: '/x' })).name).toBe(name);
    });
  });
}

let sqliteDir = '';
siteStoreContract(
  'SQLite',
  async () => {
    sqliteDir = await mkdtemp(join(tmpdir(), 'boxagnts-sites-store-'));
    return openStore({ kind: 'sqlite', path: join(sqliteDir, 'workspace.db') });
  },
  () => rm(sqliteDir, { recursive: true, force: true }),
);

describe.skipIf(postgresMissing !== undefined)('PostgreSQL (skipped without a server at 127.0.0.1:5432)', () => {
  siteStoreContract(
    'PostgreSQL',
    async () => {
      const failed = await admin(`CREATE DATABASE ${databaseName}`);
      if (failed !== undefined) throw new Error(failed);
      const url = new URL(adminUrl);
      url.pathname = `/${databaseName}`;
      return openStore({ kind: 'postgres', url: url.toString() });
    },
    async () => {
      await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    },
  );
});
