import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from './open-store.js';
import { openPostgresBackend } from './postgres-backend.js';
import { defineStoreContract } from './store-contract.test-suite.js';
import { isStoreError } from './store-error.js';

/** The server's maintenance database; override with BOXAGNTS_TEST_POSTGRES_URL. */
const adminUrl = process.env.BOXAGNTS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `boxagnts_test_${process.pid}_${randomBytes(4).toString('hex')}`;
const databaseUrl = (() => {
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
})();

async function serverAnswers(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const unavailable = await serverAnswers();
if (unavailable !== undefined) {
  console.warn(`PostgreSQL store tests skipped: no server answers at ${adminUrl} (${unavailable}).`);
}

async function onDatabase(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Empties the test database: the store migrates from nothing on its next open. */
function resetSchema(): Promise<void> {
  return onDatabase(databaseUrl, 'DROP SCHEMA public CASCADE; CREATE SCHEMA public');
}

// Skipped, with the reason printed above, where no PostgreSQL server answers on 127.0.0.1:5432.
describe.skipIf(unavailable !== undefined)('PostgreSQL store', () => {
  beforeAll(async () => {
    await onDatabase(adminUrl, `CREATE DATABASE ${databaseName}`);
  });
  afterAll(async () => {
    await onDatabase(adminUrl, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  });

  defineStoreContract('postgres', {
    kind: 'postgres',
    async openEmpty() {
      await resetSchema();
      return openStore({ kind: 'postgres', url: databaseUrl });
    },
    async reopen() {
      return openStore({ kind: 'postgres', url: databaseUrl });
    },
    async openEmptyBackend() {
      await resetSchema();
      return openPostgresBackend(databaseUrl);
    },
  });

  it('reports an unreachable server as a connection-failed StoreError', async () => {
    const error = await openStore({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/none' }).catch(
      (caught) => caught,
    );
    expect(isStoreError(error)).toBe(true);
    expect(error.reason).toBe('connection-failed');
    expect(error.message).toContain('check the store URL');
  });

  it('reports a missing database as a connection-failed StoreError', async () => {
    const url = databaseUrl.replace(databaseName, `${databaseName}_missing`);
    const error = await openStore({ kind: 'postgres', url }).catch((caught) => caught);
    expect(isStoreError(error) && error.reason).toBe('connection-failed');
  });

  it('lets two stores migrate one empty database at once', async () => {
    await resetSchema();
    const stores = await Promise.all([
      openStore({ kind: 'postgres', url: databaseUrl }),
      openStore({ kind: 'postgres', url: databaseUrl }),
    ]);
    expect(await Promise.all(stores.map((store) => store.schemaVersion()))).toEqual([2, 2]);
    for (const store of stores) await store.close();
  });
});
