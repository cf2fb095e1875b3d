import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWorkspace } from '@boxagnts/workspace';
import pg from 'pg';
import { CANARY_KEY } from './test-workspace.js';

/** The server the PostgreSQL tests use (trust auth on this machine kind). */
export const adminUrl = process.env.BOXAGNTS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function onAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Why PostgreSQL tests cannot run here (no server answering), or undefined. */
export async function postgresUnavailable(): Promise<string | undefined> {
  return onAdmin('SELECT 1').then(
    () => undefined,
    (error: unknown) =>
      `no PostgreSQL server at ${adminUrl} (${error instanceof Error ? error.message : String(error)})`,
  );
}

/** A fresh database of its own for one test file; `drop()` removes it. */
export async function createTestDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onAdmin(`CREATE DATABASE ${name}`);
  const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  return { url, drop: () => onAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** A workspace folder whose store is the PostgreSQL database `url` and whose `anthropic` is `mockUrl`. */
export async function createPostgresWorkspaceDir(url: string, mockUrl: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-gateway-pg-'));
  await writeFile(
    join(dir, 'boxagnts.json'),
    JSON.stringify({
      model: 'anthropic/claude-sonnet-4-6',
      providers: { anthropic: { baseUrl: mockUrl, apiKey: { secret: 'anthropic' } } },
      store: { kind: 'postgres', url },
    }),
  );
  const workspace = await openWorkspace(dir);
  await workspace.secrets.set('anthropic', CANARY_KEY);
  await workspace.close();
  return dir;
}
