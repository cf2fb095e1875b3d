import { type Kysely, sql } from 'kysely';
import type { StoreDatabase } from './store-database.js';

/**
 * Version 4: `usage_records.purpose` (why a model call was made: `turn`, `compaction`, `summary`,
 * `other`; `NULL` on rows recorded before, which reports group under `''`), with an index for
 * reports by purpose; `sessions.kind` (`session`, `fork` or `sub-agent`; existing forks, the rows
 * with a `forked_at_seq`, become `fork`) and an index on `sessions.parent_session_id`, so a
 * parent's child sessions are listed without a scan. Same statements on both backends.
 */
export async function applySchemaV4(transaction: Kysely<StoreDatabase>): Promise<void> {
  await sql`ALTER TABLE usage_records ADD COLUMN purpose TEXT`.execute(transaction);
  await sql`CREATE INDEX usage_records_purpose ON usage_records (purpose)`.execute(transaction);
  await sql`ALTER TABLE sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'session'`.execute(transaction);
  await sql`UPDATE sessions SET kind = 'fork' WHERE forked_at_seq IS NOT NULL`.execute(transaction);
  await sql`CREATE INDEX sessions_parent ON sessions (parent_session_id)`.execute(transaction);
}
