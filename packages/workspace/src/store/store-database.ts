import type { Generated } from 'kysely';

/** The `sessions` table: one row per conversation. Times are epoch milliseconds. */
export interface SessionsTable {
  id: string;
  title: string;
  agent: string | null;
  model: string | null;
  parent_session_id: string | null;
  forked_at_seq: number | null;
  created_at: number;
  updated_at: number;
  /** Equals the highest `seq` of the session's messages (messages are append-only). */
  message_count: Generated<number>;
  /** `session`, `fork` (made by `fork()`) or `sub-agent` (a sub-agent's transcript); from schema v4. */
  kind: Generated<SessionKind>;
}

/** What made a session: a run, `fork()`, or a sub-agent of the parent session's run. */
export type SessionKind = 'session' | 'fork' | 'sub-agent';

/** The `messages` table: append-only; JSON columns hold text exactly as serialised. */
export interface MessagesTable {
  id: Generated<number>;
  session_id: string;
  seq: number;
  role: 'system' | 'user' | 'assistant';
  /** JSON of the message's `content`. */
  content: string;
  /** JSON of the message's own `providerMetadata`, when it has one. */
  provider_metadata: string | null;
  model: string | null;
  /** JSON of a `Usage`. */
  usage: string | null;
  /** JSON of `{ keptMessages }` on a compaction summary. */
  compaction: string | null;
  created_at: number;
  /** The plain text that search indexes (text blocks and tool results). */
  search_text: Generated<string>;
}

/** The `usage_records` table: one row per model call. */
export interface UsageRecordsTable {
  id: Generated<number>;
  session_id: string | null;
  provider: string;
  model: string;
  agent: string | null;
  sub_agent: string | null;
  input_tokens: number;
  input_no_cache_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  output_tokens: number;
  output_text_tokens: number;
  reasoning_tokens: number;
  cost_usd: number | null;
  created_at: number;
  /** UTC day `YYYY-MM-DD` of `created_at`, for reports. */
  day: string;
  /** Why the call was made (`turn`, `compaction`, ...); `NULL` when not given. From schema v4. */
  purpose: Generated<string | null>;
}

/** The `cron_jobs` table: scheduled jobs of the gateway. */
export interface CronJobsTable {
  id: string;
  name: string;
  schedule: string;
  /** JSON of what the job runs. */
  payload: string;
  enabled: number;
  created_at: number;
  updated_at: number;
  last_run_at: number | null;
  next_run_at: number | null;
}

/** The `cron_runs` table: one row per run of a cron job. */
export interface CronRunsTable {
  id: string;
  job_id: string;
  started_at: number;
  finished_at: number | null;
  status: 'running' | 'succeeded' | 'failed';
  output: string | null;
}

/** The `sites` table: static sites the gateway hosts from the workspace's `sites/` folder. */
export interface SitesTable {
  id: string;
  name: string;
  path: string;
  created_at: number;
  updated_at: number;
}

/** The `schema_version` table: one row per applied migration. */
export interface SchemaVersionTable {
  version: number;
  applied_at: number;
}

/** Every table of the store, for kysely's typed queries. */
export interface StoreDatabase {
  sessions: SessionsTable;
  messages: MessagesTable;
  usage_records: UsageRecordsTable;
  cron_jobs: CronJobsTable;
  cron_runs: CronRunsTable;
  sites: SitesTable;
  schema_version: SchemaVersionTable;
}
