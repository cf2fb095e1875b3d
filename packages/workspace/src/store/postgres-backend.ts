import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { loadMessagesSql, type MessageColumns } from './message-load.js';
import type { StoreBackend } from './store-backend.js';
import type { StoreDatabase } from './store-database.js';

/** Settings of a PostgreSQL store. */
export interface PostgresBackendOptions {
  /** Connections in the pool (default 10). */
  poolSize?: number;
}

const LOAD_MESSAGES_SQL = loadMessagesSql('$1');

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * Parses BIGINT and NUMERIC as numbers for this pool only (epoch-ms times, counts and sums fit in a
 * double), leaving pg's process-wide parsers alone.
 */
const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  },
};

/**
 * Connects a pool to a PostgreSQL database for the store; writes run in ordinary (read committed)
 * transactions, and appends to one session serialise on the session row's lock.
 */
export function openPostgresBackend(url: string, options: PostgresBackendOptions = {}): StoreBackend {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types: typeParsers });
  // An idle client's socket error would otherwise crash the process.
  pool.on('error', () => undefined);
  const database = new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: 'postgres',
    database,
    async readMessages(sessionId) {
      // Straight on the pool (what kysely would do, less building the query) with array rows, which
      // pg fills without naming each column of each row; this pool's type parsers still apply.
      const result = await pool.query<MessageColumns>({
        text: LOAD_MESSAGES_SQL,
        values: [sessionId],
        rowMode: 'array',
      });
      return result.rows;
    },
    write(work) {
      return database.transaction().execute((transaction) => work(transaction));
    },
    async close() {
      await database.destroy();
    },
  };
}
