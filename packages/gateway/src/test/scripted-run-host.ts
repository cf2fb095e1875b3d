import type { CronRunHost, CronRunRecord, CronRunRequest } from '../cron/cron-run-host.js';
import type { ManualClock } from './manual-clock.js';

/** A run the scripted host holds: the request and its record. */
export interface ScriptedRun {
  request: CronRunRequest;
  record: CronRunRecord;
  /** `now()` when `start` was called. */
  startedAt: number;
}

/**
 * A run host for scheduler tests: runs start on `start` and end only when the test ends them (or
 * cancels, unless told to ignore cancellation), with the same record and events the gateway's
 * RunManager gives; a dedupe key used twice returns the first run.
 */
export class ScriptedRunHost implements CronRunHost {
  readonly runs: ScriptedRun[] = [];
  readonly #listeners = new Set<(change: { type: 'started' | 'ended'; record: CronRunRecord }) => void>();
  readonly #byKey = new Map<string, ScriptedRun>();
  readonly #clock: ManualClock;
  /** When true, `cancel` does nothing (a run that ignores cancellation). */
  ignoreCancel = false;
  /** Thrown by the next `start` calls while set. */
  failStart: Error | undefined;
  /** When set, every run ends with this reason right after it starts. */
  autoEnd: string | undefined;

  constructor(clock: ManualClock) {
    this.#clock = clock;
  }

  async start(request: CronRunRequest): Promise<CronRunRecord & { deduplicated?: boolean }> {
    if (this.failStart !== undefined) throw this.failStart;
    const existing = this.#byKey.get(request.dedupeKey);
    if (existing !== undefined) return { ...existing.record, deduplicated: true };
    const now = this.#clock.now();
    const record: CronRunRecord = {
      id: `run-${this.runs.length + 1}`,
      sessionId: request.sessionId,
      status: 'running',
      startedAt: now,
    };
    const run = { request, record, startedAt: now };
    this.runs.push(run);
    this.#byKey.set(request.dedupeKey, run);
    queueMicrotask(() => {
      this.#emit('started', record);
      if (this.autoEnd !== undefined) this.end(record.id, this.autoEnd);
    });
    return { ...record };
  }

  subscribe(listener: (change: { type: 'started' | 'ended'; record: CronRunRecord }) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async get(runId: string): Promise<CronRunRecord> {
    const run = this.runs.find((candidate) => candidate.record.id === runId);
    if (run === undefined) throw new Error(`No run "${runId}".`);
    return { ...run.record };
  }

  async cancel(runId: string): Promise<unknown> {
    if (this.ignoreCancel) return undefined;
    this.end(runId, 'cancelled', { status: 'cancelled' });
    return undefined;
  }

  /** Ends a run with an outcome reason (`end_turn`, `max_turns`, ...), its cost and error. */
  end(runId: string, reason: string, extra: Partial<CronRunRecord> = {}): void {
    const run = this.runs.find((candidate) => candidate.record.id === runId);
    if (run === undefined || run.record.status !== 'running') return;
    run.record = {
      ...run.record,
      status: reason === 'error' ? 'failed' : 'completed',
      reason,
      finishedAt: this.#clock.now(),
      ...extra,
    };
    this.#emit('ended', run.record);
  }

  /** The runs still running. */
  live(): ScriptedRun[] {
    return this.runs.filter((run) => run.record.status === 'running');
  }

  #emit(type: 'started' | 'ended', record: CronRunRecord): void {
    for (const listener of this.#listeners) listener({ type, record: { ...record } });
  }
}
