/** Where a run is in its life. `queued` and `running` are live; the rest are final. */
export type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | 'interrupted';

/** What a restarted gateway does with a run it finds unfinished: run it on, or mark it interrupted. */
export type RestartPolicy = 'resume' | 'interrupt';

/** What a new run does when its session is busy with another run. */
export type BusyPolicy = 'reject' | 'enqueue' | 'interrupt';

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
  /** The user messages the run adds (JSON of `Message[]`), kept so a queued run survives a restart. */
  input: unknown;
  /** Loop overrides asked for (budget, max turns). */
  limits: { budgetUsd?: number; maxTurns?: number };
  /** The outcome's reason once final (`end_turn`, `cancelled`, ...). */
  reason: string | undefined;
  /** The last assistant text once final. */
  text: string | undefined;
  error: string | undefined;
  /** Highest event sequence number written. */
  lastSeq: number;
  createdAt: number;
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
}

/**
 * Where the gateway keeps runs and their events, in the workspace database. Writes are durable
 * when they return: an event the gateway has sent to a client is on disk first.
 */
export interface RunLog {
  create(run: NewRun): RunRecord;
  get(runId: string): RunRecord | undefined;
  list(options?: { sessionId?: string; status?: readonly RunStatus[]; limit?: number }): RunRecord[];
  /** Appends one event with the next sequence number and returns it. */
  append(runId: string, type: string, data: Record<string, unknown>): RunEvent;
  /** Events with `seq > afterSeq`, in order, at most `limit`. */
  events(runId: string, afterSeq: number, limit?: number): RunEvent[];
  setStatus(
    runId: string,
    status: RunStatus,
    final?: { reason?: string; text?: string; error?: string },
  ): RunRecord | undefined;
  close(): void;
}
