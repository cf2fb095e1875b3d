import BetterSqlite3 from 'better-sqlite3';
import { type BenchTarget, LOAD_COLUMNS, type RawLoadRow, rawEntries, rawRows, searchWords } from './bench-target.js';

const SCHEMA = [
  `CREATE TABLE sessions (id TEXT PRIMARY KEY, message_count INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
  `CREATE TABLE messages (
    id INTEGER PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions (id), seq INTEGER NOT NULL,
    role TEXT NOT NULL, content TEXT NOT NULL, provider_metadata TEXT, model TEXT, usage TEXT, compaction TEXT,
    created_at INTEGER NOT NULL, search_text TEXT NOT NULL,
    UNIQUE (session_id, seq))`,
  `CREATE VIRTUAL TABLE message_search USING fts5(text, session_id UNINDEXED, seq UNINDEXED, tokenize = 'unicode61 remove_diacritics 2')`,
  `CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
    INSERT INTO message_search (rowid, text, session_id, seq) VALUES (new.id, new.search_text, new.session_id, new.seq);
  END`,
];

/**
 * The baseline: better-sqlite3 with the store's pragmas (WAL, synchronous FULL), the same tables,
 * FTS5 index and one `BEGIN IMMEDIATE` transaction per append, without validation or kysely; a
 * load reads the store's columns through one prepared statement and builds the same entries.
 */
export function rawSqliteTarget(path: string): BenchTarget {
  const database = new BetterSqlite3(path, { timeout: 5000 });
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  for (const statement of SCHEMA) database.exec(statement);
  const upsert = database.prepare(
    `INSERT INTO sessions (id, message_count, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET message_count = message_count + excluded.message_count, updated_at = excluded.updated_at
     RETURNING message_count`,
  );
  const insert = database.prepare(
    `INSERT INTO messages (session_id, seq, role, content, provider_metadata, model, usage, compaction, created_at, search_text)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Rows as arrays: better-sqlite3's fastest way to read them, as the store does.
  const select = database.prepare(`SELECT ${LOAD_COLUMNS} FROM messages WHERE session_id = ? ORDER BY seq`).raw(true);
  const selectNarrow = database.prepare('SELECT seq, role, content FROM messages WHERE session_id = ? ORDER BY seq');
  const search = database.prepare(
    `SELECT s.session_id, s.seq, m.role, snippet(message_search, 0, '[', ']', '…', 16) AS snippet
     FROM message_search s JOIN messages m ON m.id = s.rowid
     WHERE message_search MATCH ? ORDER BY s.rank, s.session_id, s.seq LIMIT 20`,
  );
  const append = database.transaction((sessionId: string, rows: ReturnType<typeof rawRows>) => {
    const { message_count: count } = upsert.get(sessionId, rows.length, Date.now()) as { message_count: number };
    let seq = count - rows.length + 1;
    for (const row of rows) {
      insert.run(
        sessionId,
        seq++,
        row.role,
        row.content,
        row.providerMetadata,
        row.model,
        row.usage,
        row.compaction,
        row.createdAt,
        row.searchText,
      );
    }
  });
  return {
    name: 'raw better-sqlite3',
    async append(sessionId, entries) {
      append.immediate(sessionId, rawRows(entries));
    },
    async load(sessionId) {
      return rawEntries(sessionId, select.all(sessionId) as RawLoadRow[]);
    },
    async loadNarrow(sessionId) {
      return (selectNarrow.all(sessionId) as Array<{ seq: number; role: string; content: string }>).map((row) => ({
        seq: row.seq,
        role: row.role,
        content: JSON.parse(row.content) as unknown,
      }));
    },
    async search(query) {
      const match = searchWords(query)
        .map((word) => `"${word}"`)
        .join(' ');
      return search.all(match);
    },
    async close() {
      database.close();
    },
  };
}
