import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, migrateStore } from './migrate.js';
import { openStore } from './open-store.js';
import { openPostgresBackend } from './postgres-backend.js';
import { POSTGRES_SEARCH_VECTOR } from './schema-v2.js';
import { prepareEntry } from './session-rows.js';
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

async function onDatabase<Row extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  statement: string,
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const results = (await client.query<Row>(statement)) as pg.QueryResult<Row> | pg.QueryResult<Row>[];
    return (Array.isArray(results) ? results.at(-1) : results)?.rows ?? [];
  } finally {
    await client.end();
  }
}

/** Empties the test database: the store migrates from nothing on its next open. */
async function resetSchema(): Promise<void> {
  await onDatabase(databaseUrl, 'DROP SCHEMA public CASCADE; CREATE SCHEMA public');
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

  it('version 3 fills the stored search vector of existing messages and indexes it instead of the expression', async () => {
    await resetSchema();
    const backend = openPostgresBackend(databaseUrl);
    try {
      await migrateStore(backend, 2);
      await backend.write(async (transaction) => {
        await transaction
          .insertInto('sessions')
          .values({ id: 'old', title: '', created_at: 1, updated_at: 1, message_count: 2 })
          .execute();
        await transaction
          .insertInto('messages')
          .values(
            ['renamed zebra.txt to okapi.txt', 'mail x@y.z about a/b'].map((content, index) => ({
              ...prepareEntry({ message: { role: 'user', content } }),
              session_id: 'old',
              seq: index + 1,
              created_at: 1,
            })),
          )
          .execute();
      });
      expect(await migrateStore(backend, 3)).toBe(3);
    } finally {
      await backend.close();
    }
    // ALTER TABLE ... ADD COLUMN ... STORED computed the vector of every existing row.
    expect(
      await onDatabase(
        databaseUrl,
        `SELECT seq, search_vector::text AS vector, search_vector = ${POSTGRES_SEARCH_VECTOR} AS same
         FROM messages ORDER BY seq`,
      ),
    ).toEqual([
      { seq: 1, vector: "'okapi':5 'renamed':1 'to':4 'txt':3,6 'zebra':2", same: true },
      { seq: 2, vector: "'a':6 'about':5 'b':7 'mail':1 'x':2 'y':3 'z':4", same: true },
    ]);
    const indexes = await onDatabase<{ indexname: string; indexdef: string }>(
      databaseUrl,
      "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'messages' AND indexdef LIKE '%gin%' ORDER BY indexname",
    );
    expect(indexes.map((index) => index.indexname)).toEqual(['messages_search_vector']);
    expect(indexes[0]?.indexdef).toContain('USING gin (search_vector)');
    // The planner can answer a search from the index on the column.
    const plan = await onDatabase<{ 'QUERY PLAN': string }>(
      databaseUrl,
      `SET enable_seqscan = off;
       EXPLAIN SELECT seq FROM messages WHERE search_vector @@ plainto_tsquery('simple', 'okapi')`,
    );
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain('messages_search_vector');
  });

  it('lets two stores migrate one empty database at once', async () => {
    await resetSchema();
    const stores = await Promise.all([
      openStore({ kind: 'postgres', url: databaseUrl }),
      openStore({ kind: 'postgres', url: databaseUrl }),
    ]);
    expect(await Promise.all(stores.map((store) => store.schemaVersion()))).toEqual([
      LATEST_SCHEMA_VERSION,
      LATEST_SCHEMA_VERSION,
    ]);
    for (const store of stores) await store.close();
  });
});
