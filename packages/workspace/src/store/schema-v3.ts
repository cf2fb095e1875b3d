import { type Kysely, sql } from 'kysely';
import { POSTGRES_SEARCH_VECTOR } from './schema-v2.js';
import type { StoreDatabase } from './store-database.js';

/**
 * The PostgreSQL column holding each message's tsvector (v2's expression, computed once when the
 * row is written). Search matches and ranks on it, so ranking never recomputes a vector.
 */
export const POSTGRES_SEARCH_COLUMN = 'search_vector';

const POSTGRES_STATEMENTS = [
  // A stored generated column is computed for every existing row by this ALTER TABLE (which
  // rewrites the table), and for every later insert, whatever statement makes it.
  `ALTER TABLE messages ADD COLUMN ${POSTGRES_SEARCH_COLUMN} tsvector
    GENERATED ALWAYS AS (${POSTGRES_SEARCH_VECTOR}) STORED`,
  `CREATE INDEX messages_search_vector ON messages USING GIN (${POSTGRES_SEARCH_COLUMN})`,
  // v2's expression index: search no longer uses it, and every insert would still pay for it.
  'DROP INDEX messages_search',
];

/**
 * Version 3: on PostgreSQL, `messages.search_vector` (a stored generated tsvector of
 * `search_text`) with a GIN index in place of v2's expression index. Nothing changes on SQLite,
 * whose FTS5 table already stores what it ranks; the version is only recorded.
 */
export async function applySchemaV3(transaction: Kysely<StoreDatabase>, kind: 'sqlite' | 'postgres'): Promise<void> {
  if (kind === 'sqlite') return;
  for (const statement of POSTGRES_STATEMENTS) await sql.raw(statement).execute(transaction);
}
