import type { Message } from '@boxagnts/api';
import type { Kysely } from 'kysely';
import type { StoreDatabase } from './store-database.js';

/**
 * One message row as `load` reads it: the columns of `loadMessagesSql` (message-load.ts) in order. Arrays,
 * not objects: both drivers build them without naming every column of every row (better-sqlite3
 * `raw`, pg `rowMode: 'array'`).
 */
export type MessageColumns = [
  seq: number,
  role: Message['role'],
  content: string,
  providerMetadata: string | null,
  model: string | null,
  usage: string | null,
  compaction: string | null,
  createdAt: number,
];

/**
 * One opened database: kysely for reads, and `write` for transactions, so the session and usage
 * stores are written once for both SQLite and PostgreSQL.
 */
export interface StoreBackend {
  readonly kind: 'sqlite' | 'postgres';
  /** For reads outside a transaction. */
  readonly database: Kysely<StoreDatabase>;
  /**
   * A session's message rows in order (the hot path of `load` and export): one fixed statement,
   * rows as arrays, no query building per call. On SQLite it waits, like every kysely query, for
   * a write transaction on the connection to finish, so it never sees half a batch (and so must not
   * be called from inside `write`'s work, which holds that connection).
   */
  readMessages(sessionId: string): Promise<MessageColumns[]>;
  /**
   * Runs `work` in one write transaction (`BEGIN IMMEDIATE` on SQLite, serialised within the
   * process) and commits it; any error rolls everything back.
   */
  write<T>(work: (transaction: Kysely<StoreDatabase>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
