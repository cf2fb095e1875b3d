import { connect } from 'node:net';
import pg from 'pg';

/** The server the bench uses when `BOXAGNTS_BENCH_POSTGRES_URL` does not name another. */
export const DEFAULT_POSTGRES_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** A throwaway database for one bench run. */
export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Creates `boxagnts_bench_<pid>` on the server when it answers, or resolves with why not (the
 * PostgreSQL rows are then left out of the report).
 */
export async function createBenchDatabase(adminUrl: string): Promise<BenchDatabase | { skipped: string }> {
  const admin = new URL(adminUrl);
  const port = Number(admin.port || '5432');
  if (!(await answers(admin.hostname, port))) return { skipped: `nothing answers on ${admin.hostname}:${port}` };
  const name = `boxagnts_bench_${process.pid}`;
  const client = new pg.Client({ connectionString: adminUrl });
  try {
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    await client.end().catch(() => undefined);
    return { skipped: `cannot create a database (${(error as Error).message})` };
  }
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
