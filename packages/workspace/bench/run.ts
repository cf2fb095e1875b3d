import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/open-store.js';
import { type BenchTarget, storeTarget } from './bench-target.js';
import { type BenchSizes, type Measurement, measureAll, measureLoad } from './measure.js';
import { createBenchDatabase, DEFAULT_POSTGRES_ADMIN_URL } from './postgres-database.js';
import { rawPostgresTarget } from './raw-postgres.js';
import { rawSqliteTarget } from './raw-sqlite.js';
import { formatTable } from './report.js';

/**
 * `pnpm bench` in packages/workspace: appends per second (one session, 100 sessions at once),
 * loading a 10,000-message session and searching 100,000 messages, on SQLite and on PostgreSQL
 * when one answers, each next to a raw-driver baseline writing the same rows.
 *
 * Flags: `--quick` (small sizes, for a smoke run), `--sqlite-only`, `--load-only` (only the
 * session load, the measure of issue 18), `--profile-load` (a CPU profile of the store's and the
 * baseline's loads instead of the tables; see profile-load.ts). PostgreSQL: the server in
 * `BOXAGNTS_BENCH_POSTGRES_URL` (default postgres://postgres@127.0.0.1:5432/postgres), where the
 * bench creates and drops a database of its own.
 */
const FULL: BenchSizes = {
  rounds: 3,
  appendsOneSession: 1000,
  appendsPerSession: 10,
  loadMessages: 10_000,
  loadRepeats: 15,
  searchMessages: 100_000,
  searchRepeats: 5,
};

const QUICK: BenchSizes = {
  rounds: 2,
  appendsOneSession: 200,
  appendsPerSession: 2,
  loadMessages: 2_000,
  loadRepeats: 3,
  searchMessages: 10_000,
  searchRepeats: 3,
};

function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

/** What one backend's run measures: everything, or the load alone. */
type Measures = (
  store: BenchTarget,
  baseline: BenchTarget,
  sizes: BenchSizes,
  log: (line: string) => void,
) => Promise<Measurement[]>;

async function benchSqlite(sizes: BenchSizes, measures: Measures): Promise<Measurement[]> {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-bench-'));
  try {
    const store = storeTarget('store', await openStore({ kind: 'sqlite', path: join(dir, 'store.db') }));
    const raw = rawSqliteTarget(join(dir, 'raw.db'));
    try {
      return await measures(store, raw, sizes, (line) => log(`sqlite: ${line}`));
    } finally {
      await store.close();
      await raw.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function benchPostgres(sizes: BenchSizes, measures: Measures): Promise<Measurement[] | string> {
  const database = await createBenchDatabase(process.env.BOXAGNTS_BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_ADMIN_URL);
  if ('skipped' in database) return database.skipped;
  try {
    const store = storeTarget('store', await openStore({ kind: 'postgres', url: database.url }));
    const raw = await rawPostgresTarget(database.url);
    try {
      return await measures(store, raw, sizes, (line) => log(`postgres: ${line}`));
    } finally {
      await store.close();
      await raw.close();
    }
  } finally {
    await database.drop();
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const sizes = argv.includes('--quick') ? QUICK : FULL;
  const measures = argv.includes('--load-only') ? measureLoad : measureAll;
  const flags = argv.filter((flag) => flag === '--quick' || flag === '--load-only');
  const started = Date.now();
  const sections: string[] = [
    `@boxagnts/workspace store bench${flags.length > 0 ? ` (${flags.join(' ')})` : ''}: Node ${process.version}, ${process.platform}/${process.arch}; medians.`,
  ];
  sections.push(
    formatTable('SQLite (WAL, synchronous FULL)', 'raw better-sqlite3', await benchSqlite(sizes, measures)),
  );
  if (!argv.includes('--sqlite-only')) {
    const postgres = await benchPostgres(sizes, measures);
    sections.push(
      typeof postgres === 'string'
        ? `PostgreSQL: left out (${postgres}).`
        : formatTable('PostgreSQL', 'raw node-postgres', postgres),
    );
  }
  sections.push(`Total time ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  process.stdout.write(`${sections.join('\n\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
