import type { Workspace } from '@boxagnts/workspace';
import { PgBossRunQueue } from '../queue/pg-boss-queue.js';
import { PostgresRunSignals } from '../queue/postgres-signals.js';
import type { RunQueue } from '../queue/run-queue.js';
import type { RunSignals } from '../queue/run-signals.js';
import { createPostgresRunLog, migrateGatewayTables, openGatewayPool } from '../store/postgres-run-log.js';
import type { RunLog } from './run-types.js';
import { openSqliteRunLog } from './sqlite-run-log.js';

/** How runs are shared out (PostgreSQL store) or kept in this process (SQLite). */
export interface RunsOptions {
  /**
   * With a PostgreSQL store: how long a run stays with a gateway that stopped renewing it (killed,
   * frozen, cut off) before another gateway takes it over and resumes it; default 30,000 ms (min 1,000).
   */
  leaseMs?: number;
  /**
   * With a PostgreSQL store: runs this gateway executes at once; default 16. 0 makes an API-only
   * gateway: it accepts, serves, streams, cancels and injects, and the others execute.
   */
  concurrency?: number;
  /**
   * How long `close()` lets running runs finish before handing them back unfinished; default
   * 10,000 ms with a PostgreSQL store (another gateway resumes them), 0 with SQLite (the next start does).
   */
  shutdownGraceMs?: number;
  /** How long after a run's timeout a run that ignores the cancel is abandoned; default 5,000 ms. */
  abandonAfterMs?: number;
  /** With a PostgreSQL store: pg-boss's schema; default `pgboss`. */
  queueSchema?: string;
  /** With a PostgreSQL store: how often an idle gateway looks for due jobs; default 1,000 ms. */
  pollMs?: number;
}

/** The log, queue and signals of a gateway's runs. */
export interface RunBackend {
  kind: 'sqlite' | 'postgres';
  log: RunLog;
  queue: RunQueue | undefined;
  signals: RunSignals | undefined;
  shutdownGraceMs: number;
  /** Closes what the manager does not (the log, the pool). */
  close(): Promise<void>;
}

async function storeUrl(workspace: Workspace): Promise<string> {
  const store = workspace.config.store;
  if (store.kind !== 'postgres') throw new Error('not a PostgreSQL store');
  return typeof store.url === 'string' ? store.url : (await workspace.resolveKey(store.url, 'store.url')).reveal();
}

/**
 * Opens the run backend of a workspace: with a SQLite store, the run log in the gateway's SQLite
 * file and the in-process queue; with a PostgreSQL store, gateway-owned tables in that database
 * (migrated here) and pg-boss, shared by every gateway on it.
 */
export async function openRunBackend(
  workspace: Workspace,
  sqlitePath: string,
  options: RunsOptions = {},
): Promise<RunBackend> {
  if (workspace.config.store.kind !== 'postgres') {
    const log = openSqliteRunLog(sqlitePath);
    return {
      kind: 'sqlite',
      log,
      queue: undefined,
      signals: undefined,
      shutdownGraceMs: options.shutdownGraceMs ?? 0,
      close: () => log.close(),
    };
  }
  const url = await storeUrl(workspace);
  const pool = openGatewayPool(url, 8);
  try {
    await migrateGatewayTables(pool);
    const signals = new PostgresRunSignals(url, pool);
    await signals.open();
    let queue: PgBossRunQueue | undefined;
    const log = createPostgresRunLog(pool, (db, runId) => (queue as PgBossRunQueue).dispatchInTransaction(db, runId));
    queue = new PgBossRunQueue({
      url,
      log,
      signals,
      ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
      ...(options.queueSchema === undefined ? {} : { schema: options.queueSchema }),
    });
    await queue.open().catch(async (error: unknown) => {
      await signals.close();
      throw error;
    });
    return {
      kind: 'postgres',
      log,
      queue,
      signals,
      shutdownGraceMs: options.shutdownGraceMs ?? 10_000,
      close: async () => {
        await log.close();
        await pool.end().catch(() => undefined);
      },
    };
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}
