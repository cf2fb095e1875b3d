import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/open-store.js';
import { type BenchTarget, storeTarget } from './bench-target.js';
import { measureAll } from './measure.js';
import { measureLoad } from './measure-load.js';
import type { BenchSizes, Measurement } from './measurement.js';
import { createBenchDatabase, DEFAULT_POSTGRES_ADMIN_URL } from './postgres-database.js';
import { profileLoads } from './profile-load.js';
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

/** Loads sampled per target by `--profile-load`. */
const PROFILED_LOADS = 40;

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

/** What a run does with one backend's store and baseline: measure them, or profile their loads. */
type Work<T> = (store: BenchTarget, baseline: BenchTarget, log: (line: string) => void) => Promise<T>;

async function onSqlite<T>(work: Work<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-bench-'));
  try {
    const store = storeTarget('store', await openStore({ kind: 'sqlite', path: join(dir, 'store.db') }));
    const raw = rawSqliteTarget(join(dir, 'raw.db'));
    try {
      return await work(store, raw, (line) => log(`sqlite: ${line}`));
    } finally {
      await store.close();
      await raw.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function onPostgres<T>(work: Work<T>): Promise<T | string> {
  const database = await createBenchDatabase(process.env.BOXAGNTS_BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_ADMIN_URL);
  if ('skipped' in database) return database.skipped;
  try {
    const store = storeTarget('store', await openStore({ kind: 'postgres', url: database.url }));
    const raw = await rawPostgresTarget(database.url);
    try {
      return await work(store, raw, (line) => log(`postgres: ${line}`));
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
  const flags = argv.filter((flag) => flag === '--quick' || flag === '--load-only' || flag === '--profile-load');
  const started = Date.now();
  const sections: string[] = [
    `@boxagnts/workspace store bench${flags.length > 0 ? ` (${flags.join(' ')})` : ''}: Node ${process.version}, ${process.platform}/${process.arch}; medians.`,
  ];
  if (argv.includes('--profile-load')) {
    const profile: Work<string> = (store, baseline) =>
      profileLoads(store, baseline, sizes.loadMessages, PROFILED_LOADS);
    sections.push(`SQLite\n\n${await onSqlite(profile)}`);
    if (!argv.includes('--sqlite-only')) sections.push(`PostgreSQL\n\n${await onPostgres(profile)}`);
  } else {
    const measures = argv.includes('--load-only') ? measureLoad : measureAll;
    const measure: Work<Measurement[]> = (store, baseline, log) => measures(store, baseline, sizes, log);
    sections.push(formatTable('SQLite (WAL, synchronous FULL)', 'raw better-sqlite3', await onSqlite(measure)));
    if (!argv.includes('--sqlite-only')) {
      const postgres = await onPostgres(measure);
      sections.push(
        typeof postgres === 'string'
          ? `PostgreSQL: left out (${postgres}).`
          : formatTable('PostgreSQL', 'raw node-postgres', postgres),
      );
    }
  }
  sections.push(`Total time ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  process.stdout.write(`${sections.join('\n\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
