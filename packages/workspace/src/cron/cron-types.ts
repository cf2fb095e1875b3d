import type { CronCatchUpPolicy, CronOverlapPolicy, CronRunStatus, CronRunTrigger } from '../store/store-database.js';

export type { CronCatchUpPolicy, CronOverlapPolicy, CronRunStatus, CronRunTrigger };

/** A stored cron job. Times are epoch milliseconds. */
export interface CronJob {
  id: string;
  name: string;
  description: string;
  /** The cron expression: 5 fields, or 6 with seconds first. */
  cron: string;
  /** The IANA time zone the expression is read in (default `UTC`, as BoxAgnts schedules). */
  timezone: string;
  /** The user message each occurrence starts its run with. */
  prompt: string;
  /** The agent (default: the workspace's default agent). */
  agent?: string;
  /** `provider/model` (default: the agent's or the workspace's model). */
  model?: string;
  /** Wall-clock limit of one run; the run is cancelled at it. */
  timeoutMs: number;
  /** USD limit of one run. */
  budgetUsd?: number;
  enabled: boolean;
  overlap: CronOverlapPolicy;
  catchUp: CronCatchUpPolicy;
  createdAt: number;
  updatedAt: number;
  /** Occurrences count from this instant: creation, the last enable, or the last schedule change. */
  scheduledFrom: number;
  /** The latest occurrence a scheduler handled. */
  lastScheduledFor?: number;
  /** The next occurrence as a scheduler last computed it. */
  nextRunAt?: number;
}

/**
 * What `store.cron.create` takes. BoxAgnts' own job objects (`{id?, name, description?, cron,
 * prompt, model?, timeout?, enabled}`, `timeout` in seconds) are accepted as they are.
 */
export interface CronJobInput {
  /** Default: a new UUID. Letters, digits, `.`, `_`, `-`; at most 128 characters. */
  id?: string;
  name: string;
  description?: string;
  cron: string;
  /** Default `UTC`. */
  timezone?: string;
  prompt: string;
  agent?: string;
  model?: string;
  /** Milliseconds; default 180,000 (BoxAgnts' 180 s). */
  timeoutMs?: number;
  /** BoxAgnts' `timeout`, in seconds (used when `timeoutMs` is not given). */
  timeout?: number;
  budgetUsd?: number;
  /** Default true. */
  enabled?: boolean;
  /** Default `skip`. */
  overlap?: CronOverlapPolicy;
  /** Default `skip`. */
  catchUp?: CronCatchUpPolicy;
}

/** What `store.cron.update` takes: any field but the id; `null` clears an optional one. */
export type CronJobChanges = {
  [Key in Exclude<keyof CronJobInput, 'id'>]?:
    | CronJobInput[Key]
    | (Key extends 'agent' | 'model' | 'budgetUsd' ? null : never);
};

/** One occurrence of a job, as previewed by `nextRuns`. */
export interface CronOccurrence {
  /** Epoch milliseconds. */
  at: number;
  /** UTC, ISO 8601. */
  iso: string;
  /** Local time in the job's zone with its offset, e.g. `2026-03-29T03:00:00+02:00`. */
  local: string;
}

/** One log row: an occurrence of a job and what became of it. */
export interface CronRunEntry {
  id: string;
  jobId: string;
  /** The occurrence's instant (for `manual`, when "run now" was asked). */
  scheduledFor: number;
  trigger: CronRunTrigger;
  /** `success` exactly when the run ended with `end_turn`. */
  status: CronRunStatus;
  startedAt?: number;
  finishedAt?: number;
  /** The run's outcome reason (`end_turn`, `cancelled`, `max_turns`, `budget_exceeded`, `error`, ...). */
  outcome?: string;
  error?: string;
  costUsd?: number;
  sessionId?: string;
  runId?: string;
}

/** The fields a scheduler sets on a log row as the run goes. */
export interface CronRunChanges {
  status?: CronRunStatus;
  startedAt?: number;
  finishedAt?: number;
  outcome?: string;
  error?: string;
  costUsd?: number;
  sessionId?: string;
  runId?: string;
}

/** A cron expression and zone to preview without a stored job. */
export interface CronSpec {
  cron: string;
  timezone?: string;
}

/** The instant a change counts from (default `Date.now()`): a scheduler with its own clock passes its now. */
export interface CronClockOption {
  now?: number;
}

/** What a change listener is told. */
export interface CronJobChange {
  type: 'created' | 'updated' | 'deleted';
  jobId: string;
}

/**
 * The cron jobs of a workspace and their run log (`store.cron`). The first group of methods is for
 * users; `claim`, `updateRun`, `markScheduled`, `liveRuns`, `changeStamp` and `onChange` are for
 * the scheduler (the gateway's), which fires occurrences.
 */
export interface CronStore {
  /** Validates and stores a job; a `CronError` says what to change. */
  create(input: CronJobInput, options?: CronClockOption): Promise<CronJob>;
  update(idOrName: string, changes: CronJobChanges, options?: CronClockOption): Promise<CronJob>;
  /** Occurrences count from now on: the time it was off is not caught up. */
  enable(idOrName: string, options?: CronClockOption): Promise<CronJob>;
  disable(idOrName: string, options?: CronClockOption): Promise<CronJob>;
  /** Deletes the job and its log. */
  delete(idOrName: string): Promise<void>;
  /** By id, else by name. */
  get(idOrName: string): Promise<CronJob | undefined>;
  /** By name. */
  list(options?: { enabled?: boolean }): Promise<CronJob[]>;
  /** The next `count` (1-1000) occurrences of a job or an expression, after `after` (default now). */
  nextRuns(idOrSpec: string | CronSpec, count?: number, options?: { after?: number }): Promise<CronOccurrence[]>;
  /** A job's log, newest occurrence first. */
  runs(idOrName: string, options?: { limit?: number; before?: number }): Promise<CronRunEntry[]>;
  /** One log row by id. */
  run(entryId: string): Promise<CronRunEntry | undefined>;

  /**
   * Writes the log row of one occurrence; resolves undefined when the job already has a row for
   * that instant (another scheduler claimed it), so each occurrence is claimed once.
   */
  claim(
    jobId: string,
    scheduledFor: number,
    entry: { trigger: CronRunTrigger; status: CronRunStatus; error?: string; startedAt?: number },
  ): Promise<CronRunEntry | undefined>;
  updateRun(entryId: string, changes: CronRunChanges): Promise<CronRunEntry>;
  /** Records the latest occurrence handled and the next one (never moves `lastScheduledFor` back). */
  markScheduled(jobId: string, marks: { lastScheduledFor?: number; nextRunAt?: number | null }): Promise<void>;
  /** Log rows still `queued` or `running`, oldest first (of one job, or all). */
  liveRuns(jobId?: string): Promise<CronRunEntry[]>;
  /** Changes whenever a job is created, changed or deleted, by any process sharing the store. */
  changeStamp(): Promise<string>;
  /** Told of every change made through this store object; returns the unsubscribe. */
  onChange(listener: (change: CronJobChange) => void): () => void;
}
