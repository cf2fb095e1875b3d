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

/** Overlap policy of a cron job: what an occurrence does while an earlier run of the job is live. */
export type CronOverlapPolicy = 'skip' | 'allow' | 'queue';

/** Catch-up policy of a cron job: what happens to occurrences missed while no scheduler ran. */
export type CronCatchUpPolicy = 'skip' | 'run-once';

/** Where one occurrence of a cron job is in its life. */
export type CronRunStatus = 'queued' | 'running' | 'success' | 'failed' | 'skipped';

/** What made a cron log entry: the schedule, a catch-up after downtime, or "run now". */
export type CronRunTrigger = 'schedule' | 'catch-up' | 'manual';

/** The `cron_jobs` table (schema v5): scheduled jobs of the gateway. Times are epoch milliseconds. */
export interface CronJobsTable {
  id: string;
  name: string;
  description: string;
  /** The cron expression as given (5 fields, or 6 with seconds first). */
  schedule: string;
  /** IANA time zone the expression is read in. */
  timezone: string;
  prompt: string;
  agent: string | null;
  model: string | null;
  timeout_ms: number;
  budget_usd: number | null;
  enabled: number;
  overlap: CronOverlapPolicy;
  catch_up: CronCatchUpPolicy;
  created_at: number;
  updated_at: number;
  /** Occurrences count from here: creation, the last enable, or the last change of schedule or zone. */
  scheduled_from: number;
  /** The latest occurrence a scheduler handled (ran, queued or passed over). */
  last_scheduled_for: number | null;
  /** The next occurrence, as last computed by a scheduler. */
  next_run_at: number | null;
}

/** The `cron_runs` table (schema v5): one log row per occurrence, unique per job and instant. */
export interface CronRunsTable {
  id: string;
  job_id: string;
  scheduled_for: number;
  trigger: CronRunTrigger;
  status: CronRunStatus;
  started_at: number | null;
  finished_at: number | null;
  /** The run's outcome reason (`end_turn`, `cancelled`, `max_turns`, ...). */
  outcome: string | null;
  error: string | null;
  cost_usd: number | null;
  session_id: string | null;
  run_id: string | null;
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
