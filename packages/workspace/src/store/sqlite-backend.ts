import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { loadMessagesSql, type MessageColumns } from './message-load.js';
import { Mutex } from './mutex.js';
import { acquireProcessWriteLock } from './process-write-lock.js';
import type { StoreBackend } from './store-backend.js';
import type { StoreDatabase } from './store-database.js';
import { StoreError } from './store-error.js';

/** Settings of a SQLite store file. */
export interface SqliteBackendOptions {
  /** How long a writer waits for another process's write lock, in ms (default 5000). */
  busyTimeoutMs?: number;
  /**
   * `full` (default) syncs the WAL on every commit, so an acknowledged write survives power loss;
   * `normal` survives a process crash but may lose the last commits on power loss, and is faster.
   */
  synchronous?: 'full' | 'normal';
}

function setJournalModeWal(database: BetterSqlite3.Database, busyTimeoutMs: number): void {
  // Switching to WAL needs a moment of exclusive access; when another process opens the same new
  // file at once, SQLite reports busy without calling the busy handler, so retry here.
  const deadline = Date.now() + busyTimeoutMs;
  for (;;) {
    try {
      const mode = database.pragma('journal_mode = WAL', { simple: true });
      if (String(mode).toLowerCase() === 'wal') return;
      throw new StoreError({
        reason: 'database',
        message: `SQLite refused WAL mode (journal_mode is ${String(mode)}); put the store on a local disk that supports shared memory.`,
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY') || Date.now() > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

/**
 * Opens a SQLite file for the store: WAL, a busy timeout, foreign keys on, `synchronous` FULL by
 * default, and every write in a `BEGIN IMMEDIATE` transaction so a second process waits for the
 * write lock instead of failing with "database is locked".
 */
export function openSqliteBackend(path: string, options: SqliteBackendOptions = {}): StoreBackend {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  let connection: BetterSqlite3.Database;
  try {
    connection = new BetterSqlite3(path, { timeout: busyTimeoutMs });
    connection.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    if (path !== ':memory:') setJournalModeWal(connection, busyTimeoutMs);
    connection.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    connection.pragma('foreign_keys = ON');
  } catch (error) {
    throw new StoreError({
      reason: 'connection-failed',
      message: `Cannot open the SQLite store at ${path} (${error instanceof Error ? error.message : String(error)}); check that the folder exists and is writable.`,
      cause: error,
    });
  }
  const database = new Kysely<StoreDatabase>({ dialect: new SqliteDialect({ database: connection }) });
  // In-memory databases are private to their connection: nothing to share.
  const lock = path === ':memory:' ? undefined : acquireProcessWriteLock(path);
  const mutex = lock?.mutex ?? new Mutex();
  let loadStatement: BetterSqlite3.Statement | undefined;
  return {
    kind: 'sqlite',
    database,
    readMessages(sessionId) {
      // Through kysely's hold on the one connection: a write transaction in progress holds it
      // too, and a read on the same connection would see its uncommitted rows.
      return database.connection().execute(async () => {
        // Prepared on first use, once the store has migrated (the table must exist); kysely would
        // build and prepare the query again on every call.
        loadStatement ??= connection.prepare(loadMessagesSql('?')).raw(true);
        return loadStatement.all(sessionId) as MessageColumns[];
      });
    },
    write(work) {
      // kysely's own transaction() sends a deferred BEGIN, which fails at once with "database is
      // locked" when a read is followed by a write while another process writes; IMMEDIATE waits.
      return mutex.run(() =>
        database.connection().execute(async (bound) => {
          await sql`BEGIN IMMEDIATE`.execute(bound);
          try {
            const result = await work(bound);
            await sql`COMMIT`.execute(bound);
            return result;
          } catch (error) {
            if (connection.inTransaction) await sql`ROLLBACK`.execute(bound);
            throw error;
          }
        }),
      );
    },
    async close() {
      try {
        await mutex.run(() => database.destroy());
      } finally {
        lock?.release();
      }
    },
  };
}

/** The pragma values a SQLite store connection runs with, for checks and diagnostics. */
export async function sqlitePragmas(backend: StoreBackend): Promise<Record<string, unknown>> {
  if (backend.kind !== 'sqlite') {
    throw new StoreError({
      reason: 'invalid-input',
      message: 'Pragmas exist on SQLite stores only; pass a SQLite backend.',
    });
  }
  const read = async (name: string) => (await sql.raw(`PRAGMA ${name}`).execute(backend.database)).rows[0];
  return {
    journalMode: Object.values((await read('journal_mode')) ?? {})[0],
    synchronous: Object.values((await read('synchronous')) ?? {})[0],
    foreignKeys: Object.values((await read('foreign_keys')) ?? {})[0],
    busyTimeout: Object.values((await read('busy_timeout')) ?? {})[0],
  };
}
