import { createHash } from 'node:crypto';
import { CronError, type CronJob, type CronRunEntry, type CronRunTrigger, type CronStore } from '@boxagnts/workspace';
import { GatewayError } from '../gateway-error.js';
import { type CronClock, systemClock } from './cron-clock.js';
import { type CronRunHost, type CronRunRecord, isFinalRunStatus } from './cron-run-host.js';
import { OccurrenceHeap } from './occurrence-heap.js';
import { ScheduleCache } from './schedule-cache.js';

/** Options of {@link CronScheduler}. */
export interface CronSchedulerOptions {
  store: CronStore;
  runs: CronRunHost;
  /** Default the system clock. */
  clock?: CronClock;
  /**
   * How late an occurrence may be seen and still run as scheduled (ms); default 60,000. One seen
   * later (the gateway was down, or the machine slept) was missed, and the job's catch-up policy decides.
   */
  graceMs?: number;
  /**
   * How often jobs changed by another process (the CLI, another gateway) are picked up, and runs
   * executed elsewhere are checked (ms); default 30,000. Changes made through this store take effect at once.
   */
  syncIntervalMs?: number;
  /** How long after its timeout a run that has not ended is logged as abandoned (ms); default 15,000. */
  abandonMarginMs?: number;
  /** Structured log lines. */
  log?: (entry: Record<string, unknown>) => void;
}

interface JobState {
  job: CronJob;
  version: number;
}

interface TrackedRun {
  entryId: string;
  jobId: string;
  watchdog: unknown;
}

/** The longest single wait of the timer: it re-arms after this, so a clock jump is noticed within a minute. */
const MAX_TIMER_MS = 60_000;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `cron-<job>-<instant>`: a fresh session per occurrence, readable in session lists. */
export function cronSessionId(jobId: string, scheduledFor: number): string {
  const instant = new Date(scheduledFor).toISOString().replace(/[-:]/g, '').replace('.000Z', 'Z').replace('.', '');
  const job =
    jobId.length <= 80
      ? jobId
      : `${jobId.slice(0, 60)}-${createHash('sha256').update(jobId).digest('hex').slice(0, 12)}`;
  return `cron-${job}-${instant}`;
}

/** The dedupe key of an occurrence: one run per job and instant, across every gateway sharing the store. */
export function cronDedupeKey(jobId: string, scheduledFor: number): string {
  return `cron:${jobId}:${new Date(scheduledFor).toISOString()}`;
}

/**
 * Fires the enabled cron jobs of a store: one timer for every job (a heap of next occurrences),
 * each occurrence claimed once in the store's log and started as an ordinary run in a fresh
 * session (origin `cron`, a dedupe key, the job's timeout and budget), its log row written when it
 * starts and when it ends. Overlap (`skip`, `allow`, `queue`) and catch-up (`skip`, `run-once`)
 * follow each job's policy; a run that outlives its timeout is abandoned, never waited for.
 */
export class CronScheduler {
  readonly #store: CronStore;
  readonly #runs: CronRunHost;
  readonly #clock: CronClock;
  readonly #graceMs: number;
  readonly #syncIntervalMs: number;
  readonly #abandonMarginMs: number;
  readonly #log: (entry: Record<string, unknown>) => void;
  readonly #schedules = new ScheduleCache();
  readonly #jobs = new Map<string, JobState>();
  readonly #heap = new OccurrenceHeap();
  readonly #tracked = new Map<string, TrackedRun>();
  readonly #chains = new Map<string, Promise<void>>();
  readonly #pending = new Set<Promise<unknown>>();
  readonly #unsubscribes: (() => void)[] = [];
  #timer: unknown;
  #timerAt: number | undefined;
  #syncTimer: unknown;
  #stamp: string | undefined;
  #version = 0;
  #running = false;
  #scheduling = false;

  constructor(options: CronSchedulerOptions) {
    this.#store = options.store;
    this.#runs = options.runs;
    this.#clock = options.clock ?? systemClock;
    this.#graceMs = options.graceMs ?? 60_000;
    this.#syncIntervalMs = options.syncIntervalMs ?? 30_000;
    this.#abandonMarginMs = options.abandonMarginMs ?? 15_000;
    this.#log = options.log ?? (() => {});
  }

  /** The number of enabled jobs scheduled. */
  get size(): number {
    return this.#jobs.size;
  }

  /** Now, on the scheduler's clock. */
  now(): number {
    return this.#clock.now();
  }

  /** The next instant the timer is set for, if any. */
  get nextWakeAt(): number | undefined {
    return this.#timerAt;
  }

  /**
   * Loads the enabled jobs, settles the log rows an earlier process left live, applies each job's
   * catch-up policy to what was missed, and arms the timer. With `schedule: false` it fires nothing
   * by itself and only follows the runs {@link CronScheduler.runNow} starts.
   */
  async start(options: { schedule?: boolean } = {}): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#unsubscribes.push(
      this.#runs.subscribe((change) => {
        if (change.type === 'ended' && this.#tracked.has(change.record.id)) this.#track(this.#finish(change.record));
        else if (change.type === 'started' && this.#tracked.has(change.record.id))
          this.#track(this.#started(change.record));
      }),
      this.#store.onChange((change) => this.#track(this.#serialized(change.jobId, () => this.#reload(change.jobId)))),
    );
    // `schedule: false` (the CLI's `cron run`): only follows the runs `runNow` starts.
    if (options.schedule === false) return;
    this.#scheduling = true;
    await this.#recoverLive();
    await this.#loadAll();
    this.#armSync();
  }

  /** Stops the timers; runs already started go on (their log rows are settled on the next start). */
  async stop(): Promise<void> {
    this.#running = false;
    this.#scheduling = false;
    if (this.#timer !== undefined) this.#clock.clearTimer(this.#timer);
    if (this.#syncTimer !== undefined) this.#clock.clearTimer(this.#syncTimer);
    this.#timer = undefined;
    this.#timerAt = undefined;
    this.#syncTimer = undefined;
    for (const unsubscribe of this.#unsubscribes.splice(0)) unsubscribe();
    for (const tracked of this.#tracked.values()) this.#clock.clearTimer(tracked.watchdog);
    await this.idle();
    this.#tracked.clear();
    this.#jobs.clear();
    this.#heap.clear();
  }

  /** Resolves when nothing the scheduler started (a fire, a reload, a log write) is still in flight. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /** Picks up a job changed outside this store object at once (the API's store calls need not). */
  reload(jobId: string): Promise<void> {
    return this.#track(this.#serialized(jobId, () => this.#reload(jobId)));
  }

  /** Reloads every job from the store if any changed since the last look (another process, the CLI). */
  async sync(): Promise<void> {
    if (this.#scheduling) {
      const stamp = await this.#store.changeStamp();
      if (stamp !== this.#stamp) await this.#loadAll();
    }
    for (const [runId, tracked] of [...this.#tracked]) {
      const record = await this.#runs.get(runId).catch(() => undefined);
      if (record !== undefined && isFinalRunStatus(record.status) && this.#tracked.get(runId) === tracked)
        await this.#finish(record);
    }
  }

  /**
   * "Run now": an occurrence at this instant (trigger `manual`), outside the schedule. Refused with
   * a `conflict` while a run of the job is live, unless its overlap policy is `allow`.
   */
  async runNow(idOrName: string): Promise<CronRunEntry> {
    const job = await this.#store.get(idOrName);
    if (job === undefined) {
      throw new CronError({
        reason: 'not-found',
        message: `There is no cron job ${JSON.stringify(idOrName)}: list the jobs to find its id or name.`,
      });
    }
    return this.#track(
      this.#serialized(job.id, async () => {
        const live = (await this.#store.liveRuns(job.id)).filter((entry) => entry.status === 'running');
        if (live.length > 0 && job.overlap !== 'allow') {
          throw new GatewayError({
            reason: 'conflict',
            message: `Cron job "${job.name}" is running (log entry ${live[0]?.id}): wait for it to end, or set its overlap policy to "allow".`,
          });
        }
        let at = this.#clock.now();
        let entry = await this.#store.claim(job.id, at, { trigger: 'manual', status: 'running', startedAt: at });
        while (entry === undefined) {
          at += 1;
          entry = await this.#store.claim(job.id, at, { trigger: 'manual', status: 'running', startedAt: at });
        }
        return this.#startRun(job, entry);
      }),
    );
  }

  #track<T>(promise: Promise<T>): Promise<T> {
    this.#pending.add(promise);
    const forget = () => this.#pending.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  /** Runs `work` after every earlier piece of work of the same job. */
  #serialized<T>(jobId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#chains.get(jobId) ?? Promise.resolve();
    const result = previous.then(work);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.#chains.set(jobId, settled);
    void settled.then(() => {
      if (this.#chains.get(jobId) === settled) this.#chains.delete(jobId);
    });
    return result;
  }

  #warn(event: string, fields: Record<string, unknown>, error?: unknown): void {
    this.#log({ level: 'warn', event, ...fields, ...(error === undefined ? {} : { error: message(error) }) });
  }

  async #loadAll(): Promise<void> {
    this.#stamp = await this.#store.changeStamp();
    // By zone and expression, so each distinct schedule is parsed once however many jobs share it.
    const jobs = (await this.#store.list({ enabled: true })).sort((a, b) =>
      a.timezone === b.timezone ? (a.cron < b.cron ? -1 : a.cron > b.cron ? 1 : 0) : a.timezone < b.timezone ? -1 : 1,
    );
    const seen = new Set<string>();
    for (const job of jobs) {
      seen.add(job.id);
      const known = this.#jobs.get(job.id);
      if (known !== undefined && known.job.updatedAt === job.updatedAt) continue;
      await this.#serialized(job.id, () => this.#refresh(job)).catch((error) =>
        this.#warn('cron-load-failed', { jobId: job.id }, error),
      );
    }
    for (const jobId of [...this.#jobs.keys()]) if (!seen.has(jobId)) this.#jobs.delete(jobId);
  }

  async #reload(jobId: string): Promise<void> {
    if (!this.#scheduling) return;
    const job = await this.#store.get(jobId);
    if (job === undefined || !job.enabled) {
      this.#jobs.delete(jobId);
      return;
    }
    await this.#refresh(job);
  }

  /** Takes a job's current row: handles what is due, then schedules its next occurrence. */
  async #refresh(job: CronJob): Promise<void> {
    if (!job.enabled) {
      this.#jobs.delete(job.id);
      return;
    }
    const known = this.#jobs.get(job.id);
    // A reload between two occurrences must not forget what this scheduler already handled.
    const handled = known?.job.lastScheduledFor;
    const state: JobState = {
      job:
        handled !== undefined &&
        (job.lastScheduledFor ?? Number.NEGATIVE_INFINITY) < handled &&
        known?.job.scheduledFrom === job.scheduledFrom
          ? { ...job, lastScheduledFor: handled }
          : job,
      version: ++this.#version,
    };
    this.#jobs.set(job.id, state);
    this.#scheduleNext(state, await this.#handleDue(state));
  }

  /** Puts the job's next occurrence on the heap (`known`: already computed by `#handleDue`). */
  #scheduleNext(state: JobState, known?: number): void {
    if (!this.#running || this.#jobs.get(state.job.id) !== state) return;
    let at = known;
    if (at === undefined) {
      const schedule = this.#schedules.get(state.job.cron, state.job.timezone);
      at = schedule.next(Math.max(this.#clock.now(), state.job.lastScheduledFor ?? Number.NEGATIVE_INFINITY));
    }
    if (at === undefined) return;
    this.#heap.push({ at, jobId: state.job.id, version: state.version });
    this.#arm();
  }

  #arm(): void {
    if (!this.#running) return;
    let top = this.#heap.peek();
    while (top !== undefined && this.#jobs.get(top.jobId)?.version !== top.version) {
      this.#heap.pop();
      top = this.#heap.peek();
    }
    if (top === undefined) return;
    if (this.#timerAt !== undefined && this.#timerAt <= top.at) return;
    if (this.#timer !== undefined) this.#clock.clearTimer(this.#timer);
    const now = this.#clock.now();
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, top.at - now));
    this.#timerAt = delay === MAX_TIMER_MS ? now + delay : top.at;
    this.#timer = this.#clock.setTimer(() => this.#onTimer(), delay);
  }

  #onTimer(): void {
    this.#timer = undefined;
    this.#timerAt = undefined;
    if (!this.#running) return;
    const now = this.#clock.now();
    for (let top = this.#heap.peek(); top !== undefined && top.at <= now; top = this.#heap.peek()) {
      this.#heap.pop();
      const state = this.#jobs.get(top.jobId);
      if (state === undefined || state.version !== top.version) continue;
      this.#track(
        this.#serialized(state.job.id, async () => {
          if (this.#jobs.get(state.job.id) !== state) return;
          let next: number | undefined;
          try {
            next = await this.#handleDue(state);
          } finally {
            this.#scheduleNext(state, next);
          }
        }),
      ).catch((error) => this.#warn('cron-fire-failed', { jobId: state.job.id }, error));
    }
    this.#arm();
  }

  /**
   * The latest occurrence since the last handled one, if any: run as scheduled when seen within the
   * grace period, else (missed) per the catch-up policy. Occurrences before it count as missed too,
   * and at most one run ever comes of them. Resolves with the next occurrence when it knows it
   * without another step.
   */
  async #handleDue(state: JobState): Promise<number | undefined> {
    const { job } = state;
    const now = this.#clock.now();
    const schedule = this.#schedules.get(job.cron, job.timezone);
    const reference = Math.max(job.lastScheduledFor ?? Number.NEGATIVE_INFINITY, job.scheduledFrom);
    // Usually nothing is due: one forward step from the reference shows it, without a backward search.
    const first = schedule.next(reference);
    if (first === undefined) return undefined;
    if (first > now) return first;
    const latest = schedule.previous(now + 1);
    if (latest === undefined || latest <= reference) return undefined;
    state.job = { ...job, lastScheduledFor: latest };
    const onTime = now - latest <= this.#graceMs;
    if (onTime) await this.#fire(state.job, latest, 'schedule');
    else if (job.catchUp === 'run-once') await this.#fire(state.job, latest, 'catch-up');
    else this.#log({ level: 'info', event: 'cron-missed', jobId: job.id, latest, catchUp: 'skip' });
    const next = schedule.next(Math.max(now, latest));
    await this.#store.markScheduled(job.id, { lastScheduledFor: latest, nextRunAt: next ?? null });
    return next;
  }

  async #fire(job: CronJob, scheduledFor: number, trigger: CronRunTrigger): Promise<void> {
    const now = this.#clock.now();
    if (job.overlap !== 'allow') {
      const live = await this.#store.liveRuns(job.id);
      const running = live.find((entry) => entry.status === 'running');
      if (running !== undefined) {
        const waiting = live.some((entry) => entry.status === 'queued');
        if (job.overlap === 'queue' && !waiting) {
          await this.#store.claim(job.id, scheduledFor, { trigger, status: 'queued' });
          return;
        }
        await this.#store.claim(job.id, scheduledFor, {
          trigger,
          status: 'skipped',
          startedAt: now,
          error:
            job.overlap === 'queue'
              ? `Skipped: the run of ${new Date(running.scheduledFor).toISOString()} was still running and another occurrence already waited (overlap: queue keeps one).`
              : `Skipped: the run of ${new Date(running.scheduledFor).toISOString()} was still running (overlap: skip).`,
        });
        return;
      }
    }
    const entry = await this.#store.claim(job.id, scheduledFor, { trigger, status: 'running', startedAt: now });
    if (entry === undefined) return; // Another scheduler sharing the store claimed it.
    await this.#startRun(job, entry);
  }

  async #startRun(job: CronJob, entry: CronRunEntry): Promise<CronRunEntry> {
    const sessionId = cronSessionId(job.id, entry.scheduledFor);
    let record: CronRunRecord & { deduplicated?: boolean };
    try {
      record = await this.#runs.start({
        sessionId,
        input: [{ role: 'user', content: job.prompt }],
        ...(job.agent === undefined ? {} : { agent: job.agent }),
        ...(job.model === undefined ? {} : { model: job.model }),
        ...(job.budgetUsd === undefined ? {} : { budgetUsd: job.budgetUsd }),
        origin: { kind: 'cron', jobId: job.id, scheduledFor: entry.scheduledFor },
        dedupeKey: cronDedupeKey(job.id, entry.scheduledFor),
        timeoutMs: job.timeoutMs,
      });
    } catch (error) {
      this.#warn('cron-start-failed', { jobId: job.id, scheduledFor: entry.scheduledFor }, error);
      const failed = await this.#store.updateRun(entry.id, {
        status: 'failed',
        outcome: 'error',
        error: `The run could not start: ${message(error)}`,
        finishedAt: this.#clock.now(),
        sessionId,
      });
      this.#afterEnd(job.id);
      return failed;
    }
    const watchdog = this.#clock.setTimer(
      () => void this.#track(this.#watchdog(record.id)),
      job.timeoutMs + this.#abandonMarginMs,
    );
    this.#tracked.set(record.id, { entryId: entry.id, jobId: job.id, watchdog });
    this.#log({ level: 'info', event: 'cron-fire', jobId: job.id, scheduledFor: entry.scheduledFor, runId: record.id });
    const started = await this.#store.updateRun(entry.id, { runId: record.id, sessionId: record.sessionId });
    // It may have ended (or been deduplicated to a finished run) before it was tracked.
    const current = isFinalRunStatus(record.status) ? record : await this.#runs.get(record.id).catch(() => undefined);
    if (current !== undefined && isFinalRunStatus(current.status)) {
      await this.#finish(current);
      return (await this.#store.run(entry.id)) ?? started;
    }
    return started;
  }

  async #started(record: CronRunRecord): Promise<void> {
    const tracked = this.#tracked.get(record.id);
    if (tracked === undefined || record.startedAt === undefined) return;
    await this.#store.updateRun(tracked.entryId, { startedAt: record.startedAt });
  }

  /** Writes the end of a tracked run to its log row: `success` exactly when it ended with `end_turn`. */
  async #finish(record: CronRunRecord): Promise<void> {
    const tracked = this.#tracked.get(record.id);
    if (tracked === undefined) return;
    this.#tracked.delete(record.id);
    this.#clock.clearTimer(tracked.watchdog);
    const success = record.reason === 'end_turn';
    const outcome = record.reason ?? record.status;
    await this.#store.updateRun(tracked.entryId, {
      status: success ? 'success' : 'failed',
      outcome,
      finishedAt: record.finishedAt ?? this.#clock.now(),
      ...(record.costUsd === undefined ? {} : { costUsd: record.costUsd }),
      ...(success ? {} : { error: record.error ?? `The run ended with ${outcome}, not end_turn.` }),
    });
    this.#log({ level: 'info', event: 'cron-end', jobId: tracked.jobId, runId: record.id, outcome });
    this.#afterEnd(tracked.jobId);
  }

  /** At the timeout plus the margin: a run still live is cancelled once more and logged as abandoned. */
  async #watchdog(runId: string): Promise<void> {
    const tracked = this.#tracked.get(runId);
    if (tracked === undefined) return;
    const record = await this.#runs.get(runId).catch(() => undefined);
    if (record !== undefined && isFinalRunStatus(record.status)) {
      await this.#finish(record);
      return;
    }
    this.#tracked.delete(runId);
    void this.#runs.cancel(runId).catch(() => undefined);
    const job = this.#jobs.get(tracked.jobId)?.job;
    await this.#store.updateRun(tracked.entryId, {
      status: 'failed',
      outcome: 'timeout',
      finishedAt: this.#clock.now(),
      error: `The run did not stop within ${this.#abandonMarginMs} ms after its timeout${job === undefined ? '' : ` of ${job.timeoutMs} ms`}; it was abandoned (its late end is ignored).`,
    });
    this.#warn('cron-abandoned', { jobId: tracked.jobId, runId });
    this.#afterEnd(tracked.jobId);
  }

  /** After a run of the job ended: its waiting occurrence may start (never awaited here, as this may run inside the job's chain). */
  #afterEnd(jobId: string): void {
    this.#track(this.#serialized(jobId, () => this.#startQueued(jobId))).catch((error) =>
      this.#warn('cron-queue-failed', { jobId }, error),
    );
  }

  /** With overlap `queue`: starts the waiting occurrence once no run of the job is live. */
  async #startQueued(jobId: string): Promise<void> {
    if (!this.#running) return;
    const live = await this.#store.liveRuns(jobId);
    if (live.some((entry) => entry.status === 'running')) return;
    const waiting = live.find((entry) => entry.status === 'queued');
    if (waiting === undefined) return;
    const job = this.#jobs.get(jobId)?.job ?? (await this.#store.get(jobId));
    if (job === undefined) return;
    const entry = await this.#store.updateRun(waiting.id, { status: 'running', startedAt: this.#clock.now() });
    await this.#startRun(job, entry);
  }

  /** Settles the log rows an earlier process left `running` or `queued`. */
  async #recoverLive(): Promise<void> {
    const queuedJobs = new Set<string>();
    for (const entry of await this.#store.liveRuns()) {
      if (entry.status === 'queued') {
        queuedJobs.add(entry.jobId);
        continue;
      }
      const job = await this.#store.get(entry.jobId);
      if (job === undefined) continue;
      if (entry.runId === undefined) {
        // Claimed, but the process stopped before the run was started: start it (the dedupe key makes this safe).
        await this.#serialized(job.id, () => this.#startRun(job, entry).then(() => undefined));
        continue;
      }
      const record = await this.#runs.get(entry.runId).catch(() => undefined);
      if (record === undefined) {
        await this.#store.updateRun(entry.id, {
          status: 'failed',
          outcome: 'error',
          finishedAt: this.#clock.now(),
          error: 'The run was lost: the gateway stopped and its run log has no such run.',
        });
        queuedJobs.add(entry.jobId);
        continue;
      }
      const started = record.startedAt ?? entry.startedAt ?? this.#clock.now();
      const remaining = Math.max(0, started + job.timeoutMs + this.#abandonMarginMs - this.#clock.now());
      const watchdog = this.#clock.setTimer(() => void this.#track(this.#watchdog(record.id)), remaining);
      this.#tracked.set(record.id, { entryId: entry.id, jobId: job.id, watchdog });
      if (isFinalRunStatus(record.status)) await this.#finish(record);
    }
    for (const jobId of queuedJobs) this.#afterEnd(jobId);
  }

  #armSync(): void {
    if (!this.#running) return;
    this.#syncTimer = this.#clock.setTimer(() => {
      void this.#track(this.sync())
        .catch((error) => this.#warn('cron-sync-failed', {}, error))
        .finally(() => this.#armSync());
    }, this.#syncIntervalMs);
  }
}
