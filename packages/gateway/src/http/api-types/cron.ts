/** What a job does when its next occurrence comes while the last run still runs. */
export type CronOverlapJson = 'skip' | 'allow' | 'queue';
/** What happens to occurrences missed while no scheduler ran. */
export type CronCatchUpJson = 'skip' | 'run-once';
/** Where one occurrence of a job is in its life. */
export type CronRunStatusJson = 'queued' | 'running' | 'success' | 'failed' | 'skipped';

/** A cron job, as `GET /cron/jobs` and `GET /cron/jobs/:id` send it. Times are epoch milliseconds. */
export interface CronJobJson {
  id: string;
  name: string;
  description: string;
  /** 5 fields, or 6 with seconds first. */
  cron: string;
  /** IANA zone the expression is read in. */
  timezone: string;
  prompt: string;
  agent?: string;
  model?: string;
  timeoutMs: number;
  budgetUsd?: number;
  enabled: boolean;
  overlap: CronOverlapJson;
  catchUp: CronCatchUpJson;
  createdAt: number;
  updatedAt: number;
  scheduledFrom: number;
  lastScheduledFor?: number;
  /** The next occurrence, computed when the answer was made (absent when disabled). */
  nextRunAt?: number;
}

/** `GET /cron/jobs`. */
export interface CronJobListJson {
  jobs: CronJobJson[];
}

/** The body of `POST /cron/jobs` (and, every field optional, `PATCH /cron/jobs/:id`; `null` clears agent, model, budgetUsd). */
export interface CronJobInputJson {
  name: string;
  description?: string;
  cron: string;
  timezone?: string;
  prompt: string;
  agent?: string | null;
  model?: string | null;
  timeoutMs?: number;
  budgetUsd?: number | null;
  enabled?: boolean;
  overlap?: CronOverlapJson;
  catchUp?: CronCatchUpJson;
}

/** One coming occurrence. */
export interface CronOccurrenceJson {
  at: number;
  /** UTC, ISO 8601. */
  iso: string;
  /** Local time in the zone with its offset, e.g. `2026-03-29T03:00:00+02:00`. */
  local: string;
}

/** `POST /cron/next-runs` (and `GET /cron/jobs/:id/next-runs`, which adds the job's `timezone`). */
export interface CronNextRunsJson {
  timezone?: string;
  runs: CronOccurrenceJson[];
}

/** One row of a job's run log. */
export interface CronRunEntryJson {
  id: string;
  jobId: string;
  scheduledFor: number;
  trigger: 'schedule' | 'catch-up' | 'manual';
  status: CronRunStatusJson;
  startedAt?: number;
  finishedAt?: number;
  /** The run's outcome reason (`end_turn`, `cancelled`, `max_turns`, `budget_exceeded`, `error`, ...). */
  outcome?: string;
  error?: string;
  costUsd?: number;
  sessionId?: string;
  runId?: string;
}

/** `GET /cron/jobs/:id/runs`, newest first. */
export interface CronRunListJson {
  runs: CronRunEntryJson[];
}
