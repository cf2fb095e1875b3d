import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace } from './open-workspace.js';

const adminUrl = process.env.BOXAGNTS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `boxagnts_ws_${process.pid}_${randomBytes(4).toString('hex')}`;
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
  console.warn(`openWorkspace on PostgreSQL skipped: no server at ${adminUrl} (${unavailable}).`);

// Skipped, with the reason printed above, where no PostgreSQL server answers on 127.0.0.1:5432.
describe.skipIf(unavailable !== undefined)('openWorkspace with a PostgreSQL store in its config', () => {
  let dir: string;
  beforeAll(async () => {
    await onAdmin(`CREATE DATABASE ${databaseName}`);
    dir = await mkdtemp(join(tmpdir(), 'ws-postgres-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await onAdmin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  });

  it('opens the store the config names (URL from the environment), and two workspaces share it', async () => {
    await writeFile(
      join(dir, 'boxagnts.json'),
      '{\n  // Shared by several gateways.\n  "store": { "kind": "postgres", "url": { "env": "BOXAGNTS_WS_PG_URL" } }\n}\n',
    );
    const env = { ...process.env, BOXAGNTS_WS_PG_URL: databaseUrl };
    const first = await openWorkspace(dir, { env });
    const second = await openWorkspace(dir, { env });
    try {
      expect(first.store.kind).toBe('postgres');
      const session = await first.store.sessions.create({ title: 'shared' });
      await first.store.sessions.append(session.id, [{ message: { role: 'user', content: 'written by the first' } }]);
      const seen = await second.store.sessions.load(session.id);
      expect(seen.map((entry) => entry.message.content)).toEqual(['written by the first']);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
