import type { Message } from '@boxagnts/api';
import { type Kysely, sql } from 'kysely';
import { markSnippet } from './mark-snippet.js';
import { POSTGRES_SEARCH_COLUMN } from './schema-v3.js';
import type { StoreDatabase } from './store-database.js';
import type { MessageSearchHit } from './store-types.js';

/** Where search marks a match in a snippet: `[` before and `]` after, on both backends. */
export const SNIPPET_MARKS = { start: '[', end: ']' } as const;

const MAX_TERMS = 16;
const MAX_LIMIT = 200;

/**
 * The words of a search query (letters and digits), so user text is never parsed as FTS5 or
 * tsquery syntax: `"a" OR (b` searches for the words a, OR and b, all of which must occur.
 */
export function searchTerms(query: string): string[] {
  return (query.match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, MAX_TERMS);
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return 20;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}

interface HitRow {
  session_id: string;
  seq: number | string;
  role: Message['role'];
  snippet: string;
}

function toHit(row: HitRow): MessageSearchHit {
  return { sessionId: row.session_id, seq: Number(row.seq), role: row.role, snippet: row.snippet };
}

async function searchSqlite(
  database: Kysely<StoreDatabase>,
  terms: string[],
  limit: number,
  sessionId: string | undefined,
): Promise<MessageSearchHit[]> {
  // Each word quoted as an FTS5 string: implicit AND, no operators.
  const match = terms.map((term) => `"${term}"`).join(' ');
  const filter = sessionId === undefined ? sql`` : sql`AND s.session_id = ${sessionId}`;
  const result = await sql<HitRow>`
    SELECT s.session_id, s.seq, m.role,
      snippet(message_search, 0, ${SNIPPET_MARKS.start}, ${SNIPPET_MARKS.end}, '…', 16) AS snippet
    FROM message_search s JOIN messages m ON m.id = s.rowid
    WHERE message_search MATCH ${match} ${filter}
    ORDER BY s.rank, s.session_id, s.seq
    LIMIT ${limit}`.execute(database);
  return result.rows.map(toHit);
}

async function searchPostgres(
  database: Kysely<StoreDatabase>,
  terms: string[],
  limit: number,
  sessionId: string | undefined,
): Promise<MessageSearchHit[]> {
  const query = sql`plainto_tsquery('simple', ${terms.join(' ')})`;
  // The stored vector (schema v3): the GIN index finds the matches, and ranking reads the vector
  // from the row instead of computing it again from the text.
  const vector = sql.ref(POSTGRES_SEARCH_COLUMN);
  const filter = sessionId === undefined ? sql`` : sql`AND session_id = ${sessionId}`;
  const result = await sql<HitRow & { search_text: string }>`
    SELECT session_id, seq, role, search_text
    FROM messages
    WHERE ${vector} @@ ${query} ${filter}
    ORDER BY ts_rank(${vector}, ${query}) DESC, session_id, seq
    LIMIT ${limit}`.execute(database);
  return result.rows.map((row) => toHit({ ...row, snippet: markSnippet(row.search_text, terms, SNIPPET_MARKS) }));
}

/**
 * Full-text search over message text: FTS5 on SQLite, a stored tsvector column with a GIN index on
 * PostgreSQL (the `simple` configuration: no stemming, like FTS5's unicode61). Every word must
 * occur; best first, ties by session and seq.
 */
export async function searchMessages(
  kind: 'sqlite' | 'postgres',
  database: Kysely<StoreDatabase>,
  query: string,
  options: { limit?: number; sessionId?: string } = {},
): Promise<MessageSearchHit[]> {
  const terms = searchTerms(typeof query === 'string' ? query : '');
  if (terms.length === 0) return [];
  const limit = clampLimit(options.limit);
  return kind === 'sqlite'
    ? searchSqlite(database, terms, limit, options.sessionId)
    : searchPostgres(database, terms, limit, options.sessionId);
}
