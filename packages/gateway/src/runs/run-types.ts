/** Where a run is in its life. `queued` and `running` are live; the rest are final. */
export type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | 'interrupted';

/** What a restarted gateway does with a run it finds unfinished: run it on, or mark it interrupted. */
export type RestartPolicy = 'resume' | 'interrupt';

/** What a new run does when its session is busy with another run. */
export type BusyPolicy = 'reject' | 'enqueue' | 'interrupt';

/**
 * Where a run came from; stored on the run. `attended`: started over the HTTP API, where a watcher can
 * answer the run's questions (so they wait for an answer); other runs never wait for a person.
 */
export type RunOrigin =
  | { kind: 'user'; attended?: boolean }
  | { kind: 'cron'; jobId: string /** epoch ms */; scheduledFor: number };

/** The live statuses. */
export const LIVE_STATUSES: readonly RunStatus[] = ['queued', 'running'];

/** Whether a status is final. */
export function isFinalStatus(status: RunStatus): boolean {
  return status !== 'queued' && status !== 'running';
}

/** A run as stored. */
export interface RunRecord {
  id: string;
  sessionId: string;
  agent: string;
  /** `provider/model`, when one was asked for. */
  model: string | undefined;
  status: RunStatus;
  onRestart: RestartPolicy;
  /** Where the run came from (`{kind: 'user', attended: true}` for a run started over the HTTP API). */
  origin: RunOrigin;
  /** The key that made this run unique (a cron occurrence's `cron:<jobId>:<ISO time>`), if any. */
  dedupeKey: string | undefined;
  /** The wall-clock limit asked for, in ms. */
  timeoutMs: number | undefined;
  /** The user messages the run adds (JSON of `Message[]`), kept so a queued run survives a restart. */
  input: unknown;
  /** Loop overrides asked for (budget, max turns). */
  limits: { budgetUsd?: number; maxTurns?: number };
  /** The outcome's reason once final (`end_turn`, `cancelled`, `timeout`, ...). */
  reason: string | undefined;
  /** The last assistant text once final. */
  text: string | undefined;
  error: string | undefined;
  /** USD cost of the run once final (from the outcome's usage); undefined when unknown. */
  costUsd: number | undefined;
  /** Highest event sequence number written. */
  lastSeq: number;
  /** Execution attempts so far (more than 1 after a resume by a restarted or another gateway). */
  attempt: number;
  createdAt: number;
  /** When a worker first began executing it (epoch ms). */
  startedAt: number | undefined;
  /** When it became final (epoch ms). */
  finishedAt: number | undefined;
  updatedAt: number;
}

/** One stored event of a run; `seq` is 1-based and dense per run. */
export interface RunEvent {
  runId: string;
  seq: number;
  type: string;
  data: Record<string, unknown>;
  createdAt: number;
}

/** A new run's fields. */
export interface NewRun {
  id: string;
  sessionId: string;
  agent: string;
  model: string | undefined;
  onRestart: RestartPolicy;
  input: unknown;
  limits: { budgetUsd?: number; maxTurns?: number };
  origin?: RunOrigin;
  dedupeKey?: string;
  timeoutMs?: number;
}

/** What {@link RunLog.create} did. */
export interface CreatedRun {
  record: RunRecord;
  /** True when a run with the same dedupe key existed: it is returned and nothing was created. */
  deduplicated: boolean;
  /**
   * True when the run was handed to the queue at once (its session was idle); false when it waits
   * behind the session's current run (`enqueue`, `interrupt`) or was deduplicated.
   */
  dispatched: boolean;
  /** The session's executing (dispatched) run when the new run has to wait for it. */
  activeRunId: string | undefined;
}

/** What {@link RunLog.finish} did. */
export interface FinishedRun {
  record: RunRecord;
  /** The `run-end` event written with the final status. */
  event: RunEvent;
  /** The session's next waiting run, now dispatched, if any. */
  next: string | undefined;
}

/** The fields written with a final status. */
export interface RunFinal {
  reason?: string;
  text?: string;
  error?: string;
  costUsd?: number;
}

/** What {@link RunLog.finish} must still find. */
export interface FinishGuard {
  attempt?: number;
  lastSeq?: number;
}

/** Filters of {@link RunLog.list}. */
export interface RunListOptions {
  sessionId?: string;
  status?: readonly RunStatus[];
  /** Runs whose origin is this cron job. */
  originJobId?: string;
  limit?: number;
}

/**
 * Where the gateway keeps runs and their events (SQLite: the gateway's database file; PostgreSQL:
 * gateway-owned tables in the workspace store's database). Writes are durable when they resolve: an
 * event a client has been sent is stored first. Per session, at most one live run is *dispatched*
 * (handed to the queue) at a time; the others wait in order and the log dispatches the next one in
 * the same transaction that finishes the current one.
 */
export interface RunLog {
  /** Creates a run (with its `run-queued` event) under the busy policy, or returns the run of its dedupe key. */
  create(run: NewRun, busy: BusyPolicy): Promise<CreatedRun>;
  get(runId: string): Promise<RunRecord | undefined>;
  list(options?: RunListOptions): Promise<RunRecord[]>;
  /**
   * Appends one event with the next sequence number. With `attempt`, only while that execution
   * attempt still holds the run (undefined when another worker took it over, or it is final).
   */
  append(runId: string, type: string, data: Record<string, unknown>, attempt?: number): Promise<RunEvent | undefined>;
  /** Events with `seq > afterSeq`, in order, at most `limit`. */
  events(runId: string, afterSeq: number, limit?: number): Promise<RunEvent[]>;
  /**
   * Takes a dispatched live run for execution by `owner` for `leaseMs`: when it is queued, or
   * running with no holder or an expired lease. Marks it running, counts the attempt and returns the
   * record (with its `attempt`), or undefined when it is final, not dispatched, or held by a live lease.
   */
  claim(runId: string, owner: string, leaseMs: number): Promise<RunRecord | undefined>;
  /**
   * Extends a held lease: `lost` when the attempt lost the run (taken over or final), `cancel` when a
   * cancel was requested meanwhile, else `held`.
   */
  renew(runId: string, attempt: number, leaseMs: number): Promise<'held' | 'cancel' | 'lost'>;
  /** Gives a held run back unfinished (status kept), so another worker can claim it at once. */
  release(runId: string, attempt: number): Promise<void>;
  /**
   * Writes a final status and its `run-end` event in one transaction, only while the run is live and
   * matches the guard: `attempt` (0: never claimed), `lastSeq` (no event was appended since, such as
   * an injected message the executor has not seen). Undefined when it did not match.
   */
  finish(runId: string, status: RunStatus, final: RunFinal, guard?: FinishGuard): Promise<FinishedRun | undefined>;
  /** Marks a cancel request on a live run (the executing worker sees it). */
  requestCancel(runId: string): Promise<void>;
  /** Whether a cancel was requested. */
  cancelRequested(runId: string): Promise<boolean>;
  close(): Promise<void>;
}
