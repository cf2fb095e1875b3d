import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { openStore } from '../store/open-store.js';
import { importScenario } from './import-scenario.test-support.js';

const adminUrl = process.env.BOXAGNTS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `boxagnts_import_${process.pid}_${randomBytes(4).toString('hex')}`;
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${databaseName}` }).toString();

async function onAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const unavailable = await onAdmin('SELECT 1').then(
  () => undefined,
  (error: unknown) => (error instanceof Error ? error.message : String(error)),
);
if (unavailable !== undefined)
  console.warn(`importBoxAgntsWorkspace on PostgreSQL skipped: no server at ${adminUrl} (${unavailable}).`);

// Skipped, with the reason printed above, where no PostgreSQL server answers on 127.0.0.1:5432.
describe.skipIf(unavailable !== undefined)('importBoxAgntsWorkspace (PostgreSQL store)', () => {
  beforeAll(() => onAdmin(`CREATE DATABASE ${databaseName}`));
  afterAll(() => onAdmin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`));
  importScenario(() => openStore({ kind: 'postgres', url: databaseUrl }));
});
