import { type Kysely, sql } from 'kysely';
import type { StoreDatabase } from './store-database.js';

// Version 1: the tables. Times are epoch milliseconds; JSON is stored as text so it comes back
// byte for byte (PostgreSQL's jsonb would reorder keys).
function statements(kind: 'sqlite' | 'postgres'): string[] {
  const time = kind === 'sqlite' ? 'INTEGER' : 'BIGINT';
  const serial = kind === 'sqlite' ? 'INTEGER PRIMARY KEY' : 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY';
  const real = kind === 'sqlite' ? 'REAL' : 'DOUBLE PRECISION';
  return [
    `CREATE TABLE sessions (
      id TEXT PRIMARY KEY,
      title TEXT NOT NULL DEFAULT '',
      agent TEXT,
      model TEXT,
      parent_session_id TEXT REFERENCES sessions(id) ON DELETE SET NULL,
      forked_at_seq INTEGER,
      created_at ${time} NOT NULL,
      updated_at ${time} NOT NULL
    )`,
    'CREATE INDEX sessions_updated_at ON sessions (updated_at)',
    `CREATE TABLE messages (
      id ${serial},
      session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant')),
      content TEXT NOT NULL,
      provider_metadata TEXT,
      model TEXT,
      usage TEXT,
      compaction TEXT,
      created_at ${time} NOT NULL,
      UNIQUE (session_id, seq)
    )`,
    `CREATE TABLE usage_records (
      id ${serial},
      session_id TEXT,
      provider TEXT NOT NULL,
      model TEXT NOT NULL,
      agent TEXT,
      sub_agent TEXT,
      input_tokens INTEGER NOT NULL DEFAULT 0,
      input_no_cache_tokens INTEGER NOT NULL DEFAULT 0,
      cache_read_tokens INTEGER NOT NULL DEFAULT 0,
      cache_write_tokens INTEGER NOT NULL DEFAULT 0,
      output_tokens INTEGER NOT NULL DEFAULT 0,
      output_text_tokens INTEGER NOT NULL DEFAULT 0,
      reasoning_tokens INTEGER NOT NULL DEFAULT 0,
      cost_usd ${real},
      created_at ${time} NOT NULL,
      day TEXT NOT NULL
    )`,
    'CREATE INDEX usage_records_created_at ON usage_records (created_at)',
    `CREATE TABLE cron_jobs (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      schedule TEXT NOT NULL,
      payload TEXT NOT NULL DEFAULT '{}',
      enabled INTEGER NOT NULL DEFAULT 1,
      created_at ${time} NOT NULL,
      updated_at ${time} NOT NULL,
      last_run_at ${time},
      next_run_at ${time}
    )`,
    `CREATE TABLE cron_runs (
      id TEXT PRIMARY KEY,
      job_id TEXT NOT NULL REFERENCES cron_jobs(id) ON DELETE CASCADE,
      started_at ${time} NOT NULL,
      finished_at ${time},
      status TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'failed')),
      output TEXT
    )`,
    'CREATE INDEX cron_runs_job ON cron_runs (job_id, started_at)',
    `CREATE TABLE sites (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      path TEXT NOT NULL,
      created_at ${time} NOT NULL,
      updated_at ${time} NOT NULL
    )`,
  ];
}

/** Creates the version 1 tables inside the migration's transaction. */
export async function applySchemaV1(transaction: Kysely<StoreDatabase>, kind: 'sqlite' | 'postgres'): Promise<void> {
  for (const statement of statements(kind)) await sql.raw(statement).execute(transaction);
}
