import { type Kysely, sql } from 'kysely';
import { messageSearchText } from './message-text.js';
import type { StoreDatabase } from './store-database.js';

const BACKFILL_BATCH = 500;

/**
 * The tsvector PostgreSQL indexes: its parser keeps `okapi.txt`, `a/b` and `x@y.z` as single
 * tokens, so those separators become spaces first, as FTS5's unicode61 tokenizer treats them. v2
 * indexes this expression; from v3 on it is the stored column `search_vector` (schema-v3.ts), which
 * search uses instead.
 */
export const POSTGRES_SEARCH_VECTOR = "to_tsvector('simple', regexp_replace(search_text, '[./@:\\\\]+', ' ', 'g'))";

async function backfillSearchText(transaction: Kysely<StoreDatabase>): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = await transaction
      .selectFrom('messages')
      .select(['id', 'content'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BACKFILL_BATCH)
      .execute();
    for (const row of rows) {
      let text = '';
      try {
        text = messageSearchText({ content: JSON.parse(row.content) });
      } catch {
        // A row that is not JSON stays unsearchable rather than failing the upgrade.
      }
      if (text !== '')
        await transaction.updateTable('messages').set({ search_text: text }).where('id', '=', row.id).execute();
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < BACKFILL_BATCH) return;
    after = Number(last.id);
  }
}

const SQLITE_SEARCH = [
  `CREATE VIRTUAL TABLE message_search USING fts5(
    text, session_id UNINDEXED, seq UNINDEXED, tokenize = 'unicode61 remove_diacritics 2'
  )`,
  `INSERT INTO message_search (rowid, text, session_id, seq)
    SELECT id, search_text, session_id, seq FROM messages WHERE search_text <> ''`,
  // Triggers keep the index in step with every insert and delete, whatever statement made them.
  `CREATE TRIGGER messages_search_insert AFTER INSERT ON messages WHEN new.search_text <> '' BEGIN
    INSERT INTO message_search (rowid, text, session_id, seq) VALUES (new.id, new.search_text, new.session_id, new.seq);
  END`,
  `CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
    DELETE FROM message_search WHERE rowid = old.id;
  END`,
];

const POSTGRES_SEARCH = [`CREATE INDEX messages_search ON messages USING GIN ((${POSTGRES_SEARCH_VECTOR}))`];

/**
 * Version 2: `sessions.message_count` (filled from the messages), `messages.search_text` (filled
 * from each message's content) and the search index: FTS5 on SQLite, a GIN tsvector index on
 * PostgreSQL.
 */
export async function applySchemaV2(transaction: Kysely<StoreDatabase>, kind: 'sqlite' | 'postgres'): Promise<void> {
  await sql`ALTER TABLE sessions ADD COLUMN message_count INTEGER NOT NULL DEFAULT 0`.execute(transaction);
  await sql`UPDATE sessions SET message_count = (SELECT COALESCE(MAX(seq), 0) FROM messages WHERE messages.session_id = sessions.id)`.execute(
    transaction,
  );
  await sql`ALTER TABLE messages ADD COLUMN search_text TEXT NOT NULL DEFAULT ''`.execute(transaction);
  await backfillSearchText(transaction);
  for (const statement of kind === 'sqlite' ? SQLITE_SEARCH : POSTGRES_SEARCH)
    await sql.raw(statement).execute(transaction);
  await sql`CREATE INDEX usage_records_day ON usage_records (day)`.execute(transaction);
}
