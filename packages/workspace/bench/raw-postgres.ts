import pg from 'pg';
import { type BenchTarget, LOAD_COLUMNS, type RawLoadRow, rawEntries, rawRows, searchWords } from './bench-target.js';

const SCHEMA = [
  'CREATE TABLE raw_sessions (id TEXT PRIMARY KEY, message_count INTEGER NOT NULL, updated_at BIGINT NOT NULL)',
  `CREATE TABLE raw_messages (
    id BIGSERIAL PRIMARY KEY, session_id TEXT NOT NULL REFERENCES raw_sessions (id), seq INTEGER NOT NULL,
    role TEXT NOT NULL, content TEXT NOT NULL, provider_metadata TEXT, model TEXT, usage TEXT, compaction TEXT,
    created_at BIGINT NOT NULL, search_text TEXT NOT NULL,
    search_vector tsvector GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED,
    UNIQUE (session_id, seq))`,
  'CREATE INDEX raw_messages_search ON raw_messages USING GIN (search_vector)',
];

/**
 * The PostgreSQL baseline: node-postgres with a pool of the store's size, the same columns (a
 * stored tsvector column, as the store's schema v3) and GIN index, one transaction per append
 * (upsert the session row, one multi-row insert); a load reads the store's columns as array rows
 * and builds the same entries.
 */
export async function rawPostgresTarget(url: string): Promise<BenchTarget> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => undefined);
  for (const statement of SCHEMA) await pool.query(statement);
  return {
    name: 'raw node-postgres',
    async append(sessionId, entries) {
      const rows = rawRows(entries);
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await client.query<{ message_count: number }>(
          `INSERT INTO raw_sessions (id, message_count, updated_at) VALUES ($1, $2, $3)
           ON CONFLICT (id) DO UPDATE SET message_count = raw_sessions.message_count + excluded.message_count,
             updated_at = excluded.updated_at
           RETURNING message_count`,
          [sessionId, rows.length, Date.now()],
        );
        const first = Number(result.rows[0]?.message_count) - rows.length + 1;
        const values: unknown[] = [];
        const tuples = rows.map((row, index) => {
          values.push(
            sessionId,
            first + index,
            row.role,
            row.content,
            row.providerMetadata,
            row.model,
            row.usage,
            row.compaction,
            row.createdAt,
            row.searchText,
          );
          const base = index * 10;
          return `(${Array.from({ length: 10 }, (_, column) => `$${base + column + 1}`).join(', ')})`;
        });
        await client.query(
          `INSERT INTO raw_messages (session_id, seq, role, content, provider_metadata, model, usage, compaction, created_at, search_text)
           VALUES ${tuples.join(', ')}`,
          values,
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    },
    async load(sessionId) {
      // Array rows: node-postgres's cheaper row mode, as the store uses.
      const result = await pool.query<RawLoadRow>({
        text: `SELECT ${LOAD_COLUMNS} FROM raw_messages WHERE session_id = $1 ORDER BY seq`,
        values: [sessionId],
        rowMode: 'array',
      });
      return rawEntries(sessionId, result.rows);
    },
    async loadNarrow(sessionId) {
      const result = await pool.query<{ seq: number; role: string; content: string }>(
        'SELECT seq, role, content FROM raw_messages WHERE session_id = $1 ORDER BY seq',
        [sessionId],
      );
      return result.rows.map((row) => ({ seq: row.seq, role: row.role, content: JSON.parse(row.content) as unknown }));
    },
    async search(query) {
      const result = await pool.query(
        `SELECT session_id, seq, role,
           ts_headline('simple', search_text, plainto_tsquery('simple', $1), 'StartSel=[, StopSel=], MaxWords=24, MinWords=8, ShortWord=0') AS snippet
         FROM raw_messages WHERE search_vector @@ plainto_tsquery('simple', $1)
         ORDER BY ts_rank(search_vector, plainto_tsquery('simple', $1)) DESC, session_id, seq
         LIMIT 20`,
        [searchWords(query).join(' ')],
      );
      return result.rows;
    },
    async close() {
      await pool.end();
    },
  };
}
