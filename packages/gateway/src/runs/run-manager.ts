import { randomUUID } from 'node:crypto';
import type { Message } from '@boxagnts/api';
import type { QueryOutcome } from '@boxagnts/query';
import type { Agent } from '../agent/create-agent.js';
import { GatewayError } from '../gateway-error.js';
import type { RunQuestion, RunQuestionAnswered } from '../http/api-types/runs.js';
import { InProcessRunQueue, type RunQueue } from '../queue/run-queue.js';
import { LocalRunSignals, type RunControl, type RunSignals } from '../queue/run-signals.js';
import { eventData } from './event-data.js';
import { answeredByUser, checkAnswer } from './question-answer.js';
import { openQuestions, QUESTION_ANSWERED_EVENT, QUESTION_EVENT, RunQuestions } from './run-questions.js';
import {
  type BusyPolicy,
  isFinalStatus,
  type RestartPolicy,
  type RunEvent,
  type RunFinal,
  type RunListOptions,
  type RunLog,
  type RunOrigin,
  type RunRecord,
  type RunStatus,
} from './run-types.js';

/** What `start` takes. */
export interface StartRunRequest {
  sessionId: string;
  /** Default the workspace's default agent. */
  agent?: string;
  model?: string;
  input: Message[];
  budgetUsd?: number;
  maxTurns?: number;
  /** When the session is busy; default `reject`. */
  busy?: BusyPolicy;
  /** After a gateway restart (or a worker lost mid-run); default `resume`. */
  onRestart?: RestartPolicy;
  /** Where the run came from; default `{kind: 'user'}`. */
  origin?: RunOrigin;
  /**
   * At most one run ever exists per key (across every gateway sharing the store): a second start with
   * the same key returns the existing record (with `deduplicated: true`) and starts nothing.
   */
  dedupeKey?: string;
  /**
   * Wall-clock limit from when the run first starts executing: the run is cancelled at the deadline;
   * if it has not stopped `abandonAfterMs` later it is marked `failed` (abandoned), its session and
   * agent are released and its late end is ignored.
   */
  timeoutMs?: number;
}

/** A change {@link RunManager.subscribe} reports. */
export interface RunChange {
  type: 'started' | 'ended';
  record: RunRecord;
}

/** Options of {@link RunManager}. */
export interface RunManagerOptions {
  log: RunLog;
  /** Leases the composed agent for one run; `release()` is called when the run ends. */
  acquireAgent(agent: string, model: string | undefined): Promise<{ agent: Agent; release(): void }>;
  defaultAgent: string;
  /** Whether an agent of this name exists (checked before a run is accepted). */
  hasAgent(name: string): boolean;
  /** Told once per run when it reaches a final status (for logs); an exception it throws is ignored. */
  onRunEnd?: (record: RunRecord) => void;
  /** What carries dispatched runs to workers; default in this process. */
  queue?: RunQueue;
  /** Wake-ups between instances; default within this process. */
  signals?: RunSignals;
  /** How long after a timeout's cancel a run that has not stopped is abandoned; default 5,000 ms. */
  abandonAfterMs?: number;
  /** How long `close()` lets running runs finish before handing them back; default 0 (hand back at once). */
  shutdownGraceMs?: number;
  /** How often a waiter re-reads the log when no signal came (ms); default 1,000. */
  pollMs?: number;
  /**
   * How long a question of an attended run waits before it is answered by timeout (ms); default the
   * workspace's `gateway.questions.timeoutMs`.
   */
  questionTimeoutMs?: number;
}

/** The final event of every run; a stream ends after it. */
export const RUN_END_EVENT = 'run-end';

interface PendingMessage {
  seq: number;
  message: Message;
}

interface LiveRun {
  record: RunRecord;
  attempt: number;
  controller: AbortController;
  pending: PendingMessage[];
  /** Seqs of injected messages already queued here (or taken). */
  seenInjected: Set<number>;
  /** Highest seq scanned for injected messages. */
  scanned: number;
  timedOut: boolean;
  /** Marked final by the timeout's abandonment: nothing more is written. */
  abandoned: boolean;
  /** Another worker took the run over, or it became final elsewhere: nothing more is written. */
  lost: boolean;
  /** Handed back at shutdown: left unfinished for another worker. */
  handback: boolean;
  finished: Promise<void>;
  resolveFinished: () => void;
  release: (() => void) | undefined;
  timers: NodeJS.Timeout[];
  /** The run's questions, when it is attended (started over the HTTP API). */
  questions: RunQuestions | undefined;
  /** Re-reads the log while questions wait (signals are only hints). */
  questionPoll: NodeJS.Timeout | undefined;
}

function statusOf(outcome: QueryOutcome): RunStatus {
  if (outcome.reason === 'cancelled') return 'cancelled';
  if (outcome.reason === 'error') return 'failed';
  return 'completed';
}

function validate(request: StartRunRequest): void {
  if (request.dedupeKey !== undefined && (typeof request.dedupeKey !== 'string' || request.dedupeKey.length === 0)) {
    throw new GatewayError({ reason: 'invalid-request', message: 'dedupeKey must be a non-empty string.' });
  }
  if (
    request.timeoutMs !== undefined &&
    (!Number.isFinite(request.timeoutMs) || request.timeoutMs <= 0 || request.timeoutMs > 2_147_483_647)
  ) {
    throw new GatewayError({
      reason: 'invalid-request',
      message: 'timeoutMs must be a positive number of milliseconds (at most 2147483647).',
    });
  }
}

/**
 * Runs as durable jobs: a run is accepted at once (stored as `queued` with its `run-queued` event),
 * carried by the queue to a worker (this process, or any gateway sharing a PostgreSQL store), one at a
 * time per session (the busy policy decides what a second run does), and every event it makes is
 * stored with a sequence number before watchers see it, so a watcher can resume exactly after the
 * last event it got, on any instance.
 */
export class RunManager {
  readonly #options: RunManagerOptions;
  readonly #queue: RunQueue;
  readonly #signals: RunSignals;
  readonly #live = new Map<string, LiveRun>();
  readonly #claiming = new Set<string>();
  readonly #listeners = new Set<(change: RunChange) => void>();
  readonly #instance = randomUUID();
  readonly #offControl: () => void;
  /** Answers handled here one at a time per run, so a second answer to a question sees the first. */
  readonly #answering = new Map<string, Promise<unknown>>();
  #started = false;
  #closing = false;

  constructor(options: RunManagerOptions) {
    this.#options = options;
    this.#queue = options.queue ?? new InProcessRunQueue();
    this.#signals = options.signals ?? new LocalRunSignals();
    this.#offControl = this.#signals.onControl((runId, kind) => void this.#onControl(runId, kind));
  }

  get log(): RunLog {
    return this.#options.log;
  }

  /** This instance's id (the owner of the runs it executes). */
  get instanceId(): string {
    return this.#instance;
  }

  /** Starts taking runs from the queue (`recover` and the gateway call it; idempotent). */
  async startWorking(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    await this.#queue.start({ execute: (runId) => this.#execute(runId) });
  }

  /**
   * Accepts a run and answers at once with its record; it starts now, or after the session's
   * current run (`enqueue`, `interrupt`). With a `dedupeKey` already used, returns that run's record
   * with `deduplicated: true` and starts nothing.
   */
  async start(request: StartRunRequest): Promise<RunRecord & { deduplicated?: boolean }> {
    if (this.#closing)
      throw new GatewayError({ reason: 'conflict', message: 'The gateway is shutting down: retry on the next start.' });
    validate(request);
    const agent = request.agent ?? this.#options.defaultAgent;
    if (!this.#options.hasAgent(agent)) {
      throw new GatewayError({
        reason: 'not-found',
        message: `No agent "${agent}": list the agents with GET /agents.`,
      });
    }
    await this.startWorking();
    const busy = request.busy ?? 'reject';
    const limits = {
      ...(request.budgetUsd === undefined ? {} : { budgetUsd: request.budgetUsd }),
      ...(request.maxTurns === undefined ? {} : { maxTurns: request.maxTurns }),
    };
    const created = await this.log.create(
      {
        id: randomUUID(),
        sessionId: request.sessionId,
        agent,
        model: request.model,
        onRestart: request.onRestart ?? 'resume',
        input: request.input,
        limits,
        origin: request.origin ?? { kind: 'user' },
        ...(request.dedupeKey === undefined ? {} : { dedupeKey: request.dedupeKey }),
        ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
      },
      busy,
    );
    if (created.deduplicated) return { ...created.record, deduplicated: true };
    this.#signals.changed(created.record.id);
    if (created.dispatched) this.#queue.dispatched(created.record.id);
    else if (busy === 'interrupt' && created.activeRunId !== undefined) await this.cancel(created.activeRunId);
    return created.record;
  }

  /** The run's record, or a `not-found` error. */
  async get(runId: string): Promise<RunRecord> {
    const record = await this.log.get(runId);
    if (record === undefined) throw new GatewayError({ reason: 'not-found', message: `No run "${runId}".` });
    return record;
  }

  /** Runs through the log: by session, status or cron job (`originJobId`), oldest first. */
  list(options: RunListOptions = {}): Promise<RunRecord[]> {
    return this.log.list(options);
  }

  /**
   * Tells `listener` when a run starts executing on this instance and when a run becomes final here
   * (each once per execution; an exception it throws is ignored). Returns the unsubscribe function.
   */
  subscribe(listener: (change: RunChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves with the final record (at once for a finished run), or the current one when `signal` aborts. */
  async wait(runId: string, signal?: AbortSignal): Promise<RunRecord> {
    for (;;) {
      const woken = this.#wakeup(runId, signal);
      const record = await this.get(runId).catch((error) => {
        woken.cancel();
        throw error;
      });
      if (isFinalStatus(record.status) || signal?.aborted === true) {
        woken.cancel();
        return record;
      }
      if (!this.#signals.shared && !this.#live.has(runId) && !this.#queued(record)) {
        // Nothing here will move it on, or it moved on since the read (executed and ended): read again.
        woken.cancel();
        const now = await this.get(runId);
        if (isFinalStatus(now.status) || (!this.#live.has(runId) && !this.#queued(now))) return now;
        continue;
      }
      await woken.promise;
    }
  }

  /** Cancels a queued or running run, on whichever instance executes it; a finished run is returned as it is. */
  async cancel(runId: string): Promise<RunRecord> {
    const record = await this.get(runId);
    if (isFinalStatus(record.status)) return record;
    const live = this.#live.get(runId);
    if (live !== undefined) {
      live.controller.abort();
      return this.get(runId);
    }
    await this.log.requestCancel(runId);
    // Never claimed: finish it here (the claim of a final run fails).
    const finished = await this.log.finish(runId, 'cancelled', { reason: 'cancelled' }, { attempt: 0 });
    if (finished !== undefined) {
      this.#ended(finished.record, finished.next);
    } else {
      await this.#signals.control(runId, 'cancel');
    }
    return this.get(runId);
  }

  /**
   * Adds a user message to a queued or running run, on whichever instance executes it; the loop takes
   * it before its next model call (or goes on with it after its last answer). Stored before it is
   * acknowledged, so a worker that takes the run over delivers it.
   */
  async inject(runId: string, message: Message): Promise<RunEvent> {
    const record = await this.get(runId);
    const event = isFinalStatus(record.status)
      ? undefined
      : await this.log.append(runId, 'message-injected', { message });
    if (event === undefined) {
      const now = await this.get(runId);
      throw new GatewayError({
        reason: 'conflict',
        message: `Run "${runId}" is ${now.status}: start a new run on session "${record.sessionId}" instead.`,
      });
    }
    this.#signals.changed(runId);
    const live = this.#live.get(runId);
    if (live !== undefined) this.#take(live, event);
    else await this.#signals.control(runId, 'inject');
    return event;
  }

  /** The run's open questions (none once it is final), oldest first. */
  async questions(runId: string): Promise<RunQuestion[]> {
    const record = await this.get(runId);
    if (isFinalStatus(record.status)) return [];
    return openQuestions(await this.log.events(runId, 0, 1_000_000));
  }

  /**
   * Answers one of the run's questions, on whichever instance executes it. The answer is checked
   * against the question (`invalid-request`), stored as a `question-answered` event before this
   * resolves, and the first answer stored wins: a second one, or one after the run ended, is a
   * `conflict`; a question id the run never asked is `not-found`.
   */
  async answer(runId: string, questionId: string, body: unknown): Promise<RunQuestionAnswered> {
    const previous = this.#answering.get(runId) ?? Promise.resolve();
    const turn = previous.catch(() => undefined).then(() => this.#answer(runId, questionId, body));
    this.#answering.set(runId, turn);
    try {
      return await turn;
    } finally {
      if (this.#answering.get(runId) === turn) this.#answering.delete(runId);
    }
  }

  async #answer(runId: string, questionId: string, body: unknown): Promise<RunQuestionAnswered> {
    const record = await this.get(runId);
    const events = await this.log.events(runId, 0, 1_000_000);
    const asked = events.find((event) => event.type === QUESTION_EVENT && event.data.questionId === questionId);
    if (asked === undefined) {
      throw new GatewayError({
        reason: 'not-found',
        message: `Run "${runId}" has no question "${questionId}": list its open questions with GET /runs/${runId}/questions.`,
      });
    }
    const earlier = events.find(
      (event) => event.type === QUESTION_ANSWERED_EVENT && event.data.questionId === questionId,
    );
    if (earlier !== undefined) {
      throw new GatewayError({
        reason: 'conflict',
        message: `Question "${questionId}" was already answered (by ${String(earlier.data.by)}).`,
      });
    }
    if (isFinalStatus(record.status)) {
      throw new GatewayError({
        reason: 'conflict',
        message: `Run "${runId}" is ${record.status}: its questions can no longer be answered.`,
      });
    }
    const answered = answeredByUser(questionId, checkAnswer(asked.data as unknown as RunQuestion, body));
    const stored = await this.log.append(runId, QUESTION_ANSWERED_EVENT, { ...answered });
    if (stored === undefined) {
      const now = await this.get(runId);
      throw new GatewayError({
        reason: 'conflict',
        message: `Run "${runId}" is ${now.status}: its questions can no longer be answered.`,
      });
    }
    this.#signals.changed(runId);
    // The first answer stored wins (a timeout or cancel on the executing gateway may have come first).
    const first = await this.#firstAnswer(runId, questionId, asked.seq);
    if (first !== undefined && first.seq !== stored.seq) {
      throw new GatewayError({
        reason: 'conflict',
        message: `Question "${questionId}" was already answered (by ${String(first.data.by)}).`,
      });
    }
    const live = this.#live.get(runId);
    if (live !== undefined) live.questions?.deliver(stored.data);
    else await this.#signals.control(runId, 'answer');
    return answered;
  }

  async #firstAnswer(runId: string, questionId: string, afterSeq: number): Promise<RunEvent | undefined> {
    for (let cursor = afterSeq; ; ) {
      const batch = await this.log.events(runId, cursor, 1000);
      const found = batch.find(
        (event) => event.type === QUESTION_ANSWERED_EVENT && event.data.questionId === questionId,
      );
      if (found !== undefined) return found;
      if (batch.length < 1000) return undefined;
      cursor = batch.at(-1)?.seq ?? cursor;
    }
  }

  /**
   * The run's events after `afterSeq`, from the log and then live, ending after the run's final
   * event (or when `signal` aborts). Several watchers can follow one run, on any instance.
   */
  async *events(runId: string, afterSeq: number, signal?: AbortSignal): AsyncGenerator<RunEvent, void> {
    await this.get(runId);
    let cursor = afterSeq;
    while (signal?.aborted !== true) {
      const woken = this.#wakeup(runId, signal);
      let batch: RunEvent[];
      try {
        batch = await this.log.events(runId, cursor, 500);
      } catch (error) {
        woken.cancel();
        throw error;
      }
      for (const event of batch) {
        yield event;
        cursor = event.seq;
        if (event.type === RUN_END_EVENT) {
          woken.cancel();
          return;
        }
      }
      if (batch.length === 500) {
        woken.cancel();
        continue;
      }
      const record = await this.get(runId);
      if (isFinalStatus(record.status) || (!this.#signals.shared && !this.#live.has(runId) && !this.#queued(record))) {
        woken.cancel();
        // Final (its run-end is stored), or left by an earlier process and not recovered.
        if ((await this.log.events(runId, cursor, 1)).length === 0) return;
        continue;
      }
      await woken.promise;
    }
  }

  /**
   * Handles what an earlier process of a single-process gateway left unfinished: a running run gets
   * a `run-interrupted` event and is resumed from its stored (repaired) history or marked
   * `interrupted`, per its policy; dispatched queued runs start. Then takes runs from the queue.
   */
  async recover(): Promise<{ resumed: string[]; interrupted: string[]; started: string[] }> {
    const report = { resumed: [] as string[], interrupted: [] as string[], started: [] as string[] };
    const records = await this.log.list({ status: ['running', 'queued'], limit: 1_000_000 });
    await this.startWorking();
    for (const record of records) {
      if (this.#live.has(record.id)) continue;
      if (record.status === 'running') {
        await this.log.release(record.id, record.attempt);
        (record.onRestart === 'interrupt' ? report.interrupted : report.resumed).push(record.id);
        this.#queue.dispatched(record.id);
      } else {
        // Only the session's dispatched run is claimed; the others follow it in order.
        report.started.push(record.id);
        this.#queue.dispatched(record.id);
      }
    }
    return report;
  }

  /**
   * Stops taking runs, lets running ones finish for `shutdownGraceMs`, then hands the rest back
   * unfinished (another worker, or the next start, resumes them from their stored history).
   */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    await this.#queue.stopTaking();
    const grace = this.#options.shutdownGraceMs ?? 0;
    const all = () => Promise.all([...this.#live.values()].map((live) => live.finished));
    if (grace > 0) await Promise.race([all(), new Promise((resolve) => setTimeout(resolve, grace).unref())]);
    for (const live of this.#live.values()) {
      live.handback = true;
      live.controller.abort();
    }
    await Promise.race([all(), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    this.#offControl();
    await this.#queue.stop();
    await this.#signals.close();
  }

  #queued(record: RunRecord): boolean {
    // In a single process a queued run that is not live here is being claimed, or waits behind its
    // session's run, which is live here; otherwise an earlier process left it and nothing will come.
    return (
      this.#claiming.has(record.id) || (record.status === 'queued' && (this.#live.size > 0 || this.#claiming.size > 0))
    );
  }

  /** A promise resolved on the run's next change signal, abort, or the poll timer. */
  #wakeup(runId: string, signal?: AbortSignal): { promise: Promise<void>; cancel: () => void } {
    let resolve: () => void = () => {};
    const promise = new Promise<void>((done) => {
      resolve = done;
    });
    const off = this.#signals.onChanged(runId, () => finish());
    const timer = setTimeout(() => finish(), this.#options.pollMs ?? 1000);
    timer.unref();
    const onAbort = () => finish();
    signal?.addEventListener('abort', onAbort, { once: true });
    function finish() {
      off();
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    return { promise, cancel: finish };
  }

  #notify(change: RunChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch {
        // A failing subscriber must not break the run's bookkeeping.
      }
    }
  }

  #ended(record: RunRecord, next: string | undefined): void {
    this.#signals.changed(record.id);
    try {
      this.#options.onRunEnd?.(record);
    } catch {
      // A failing log sink must not break the run's bookkeeping.
    }
    this.#notify({ type: 'ended', record });
    if (next !== undefined) this.#queue.dispatched(next);
  }

  async #onControl(runId: string, kind: RunControl): Promise<void> {
    const live = this.#live.get(runId);
    if (live === undefined) return;
    if (kind === 'cancel') live.controller.abort();
    else await this.#scanInjected(live).catch(() => undefined);
  }

  /** Queues an injected message for the loop, once. */
  #take(live: LiveRun, event: RunEvent): void {
    if (live.seenInjected.has(event.seq)) return;
    live.seenInjected.add(event.seq);
    live.pending.push({ seq: event.seq, message: event.data.message as Message });
  }

  /** Reads the events appended since the last scan and queues the injected messages among them. */
  async #scanInjected(live: LiveRun): Promise<void> {
    for (;;) {
      const batch = await this.log.events(live.record.id, live.scanned, 1000);
      for (const event of batch) {
        if (event.type === 'message-injected') this.#take(live, event);
        if (event.type === 'messages-taken') for (const seq of event.data.seqs as number[]) live.seenInjected.add(seq);
        if (event.type === QUESTION_ANSWERED_EVENT) live.questions?.deliver(event.data);
        live.scanned = Math.max(live.scanned, event.seq);
      }
      if (batch.length < 1000) return;
    }
  }

  /** Appends an event of the executing attempt; marks the run lost when the attempt no longer holds it. */
  async #emit(live: LiveRun, type: string, data: Record<string, unknown>): Promise<RunEvent | undefined> {
    if (live.lost || live.abandoned) return undefined;
    const event = await this.log.append(live.record.id, type, data, live.attempt);
    if (event === undefined) {
      live.lost = true;
      live.controller.abort();
      return undefined;
    }
    this.#signals.changed(live.record.id);
    return event;
  }

  async #execute(runId: string): Promise<void> {
    if (this.#closing || this.#live.has(runId) || this.#claiming.has(runId)) return;
    this.#claiming.add(runId);
    const record = await this.log
      .claim(runId, this.#instance, this.#queue.leaseMs)
      .finally(() => this.#claiming.delete(runId));
    if (record === undefined) return;
    let resolveFinished: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      resolveFinished = resolve;
    });
    const live: LiveRun = {
      record,
      attempt: record.attempt,
      controller: new AbortController(),
      pending: [],
      seenInjected: new Set(),
      scanned: 0,
      timedOut: false,
      abandoned: false,
      lost: false,
      handback: false,
      finished,
      resolveFinished,
      release: undefined,
      timers: [],
      questions: undefined,
      questionPoll: undefined,
    };
    this.#live.set(runId, live);
    try {
      await this.#runOnce(live);
    } catch (error) {
      if (!live.lost && !live.abandoned && !live.handback) {
        await this.#final(live, 'failed', { reason: 'error', error: (error as Error).message ?? String(error) }).catch(
          () => undefined,
        );
      }
    } finally {
      for (const timer of live.timers) clearTimeout(timer);
      clearInterval(live.questionPoll);
      if (!live.abandoned) live.release?.();
      if (live.handback) {
        await this.log.release(runId, live.attempt).catch(() => undefined);
        await this.#queue.handedBack(runId).catch(() => undefined);
      }
      this.#live.delete(runId);
      live.resolveFinished();
    }
  }

  async #runOnce(live: LiveRun): Promise<void> {
    const { record } = live;
    const runId = record.id;
    const renewEvery = Math.max(50, Math.floor(this.#queue.leaseMs / 3));
    const heartbeat = setInterval(() => {
      void this.log.renew(runId, live.attempt, this.#queue.leaseMs).then(
        (state) => {
          if (state === 'lost' && !live.abandoned) {
            live.lost = true;
            live.controller.abort();
          } else if (state === 'cancel') {
            // A cancel whose signal this instance missed.
            live.controller.abort();
          }
        },
        () => undefined,
      );
    }, renewEvery);
    heartbeat.unref();
    live.timers.push(heartbeat as unknown as NodeJS.Timeout);

    const earlier = await this.log.events(runId, 0, 1_000_000);
    const taken = new Set<number>();
    for (const event of earlier)
      if (event.type === 'messages-taken') for (const seq of event.data.seqs as number[]) taken.add(seq);
    for (const event of earlier) {
      if (event.type === 'message-injected' && !taken.has(event.seq)) this.#take(live, event);
      live.scanned = event.seq;
    }
    for (const seq of taken) live.seenInjected.add(seq);
    const started = earlier.find((event) => event.type === 'run-started');
    const resuming = started !== undefined || record.attempt > 1;
    if (resuming) {
      await this.#emit(live, 'run-interrupted', { reason: this.#queue.takeoverReason, policy: record.onRestart });
      // Questions the interrupted attempt left open are gone with it: close them, so no page keeps a dead dialog.
      for (const question of openQuestions(earlier)) {
        await this.#emit(live, QUESTION_ANSWERED_EVENT, {
          questionId: question.questionId,
          by: 'cancel',
          ...(question.kind === 'permission' ? { decision: 'deny', reason: 'interrupted' } : {}),
        });
      }
      if (record.onRestart === 'interrupt') {
        await this.#final(live, 'interrupted', {
          reason: 'interrupted',
          error: 'The gateway stopped during the run.',
        });
        return;
      }
    }
    if (await this.log.cancelRequested(runId)) {
      await this.#final(live, 'cancelled', { reason: 'cancelled' });
      return;
    }
    this.#armTimeout(live);
    const lease = await this.#options.acquireAgent(record.agent, record.model);
    live.release = lease.release;
    const agent = lease.agent;
    live.questions = this.#questionsFor(live, agent);
    const storedNow = (await agent.workspace.store.sessions.get(record.sessionId))?.messageCount ?? 0;
    const before = started?.data.storedMessages;
    // On resume, the run's input unless the session stored it already (the loop stores it before its
    // first model call, so the session then holds more messages than when the run started).
    let input: Message[] | undefined =
      resuming && typeof before === 'number' && storedNow > before ? undefined : (record.input as Message[]);
    await this.#emit(live, resuming ? 'run-resumed' : 'run-started', {
      storedMessages: storedNow,
      worker: this.#instance,
    });
    this.#notify({ type: 'started', record: { ...record, status: 'running' } });
    let costUsd = 0;
    for (;;) {
      const run = agent.run(input, {
        sessionId: record.sessionId,
        signal: live.controller.signal,
        pending: { drain: () => this.#drain(live) },
        config: record.limits,
        ...(live.questions === undefined ? {} : { ask: live.questions.askPermission, askUser: live.questions.askUser }),
      });
      for await (const event of run) {
        if (event.type === 'done') continue;
        await this.#emit(live, event.type, eventData(event));
      }
      const outcome = await run.outcome;
      const cost = outcome.usage.total.costUsd;
      if (Number.isFinite(cost)) costUsd += cost;
      if (live.lost || live.abandoned || live.handback) return;
      await this.#emit(live, 'done', eventData({ type: 'done', outcome }));
      const stopped = outcome.reason === 'cancelled' || outcome.reason === 'error';
      const final: RunFinal = live.timedOut
        ? {
            reason: 'timeout',
            text: outcome.text,
            error: `The run reached its timeout of ${record.timeoutMs} ms and was cancelled.`,
          }
        : {
            reason: outcome.reason,
            text: outcome.text,
            ...(outcome.reason === 'error' ? { error: outcome.error } : {}),
          };
      final.costUsd = costUsd;
      // Messages injected after the loop's last look (or on another instance) get a follow-up turn.
      for (;;) {
        await this.#scanInjected(live);
        if (live.pending.length > 0 && !stopped) break;
        const ended = await this.#final(live, live.timedOut ? 'cancelled' : statusOf(outcome), final, live.scanned);
        if (ended !== 'stale') return;
      }
      input = undefined;
    }
  }

  /** The questions of an attended run (started over the HTTP API); others never wait for a person. */
  #questionsFor(live: LiveRun, agent: Agent): RunQuestions | undefined {
    const origin = live.record.origin;
    if (origin.kind !== 'user' || origin.attended !== true) return undefined;
    const runId = live.record.id;
    return new RunQuestions({
      append: (type, data) => this.#emit(live, type, data),
      firstAnswer: async (questionId, afterSeq) => {
        const found = await this.#firstAnswer(runId, questionId, afterSeq);
        return found === undefined ? undefined : (found.data as unknown as RunQuestionAnswered);
      },
      signal: live.controller.signal,
      handingBack: () => live.handback || live.lost,
      timeoutMs: this.#options.questionTimeoutMs ?? agent.workspace.config.gateway.questions.timeoutMs,
      waiting: (count) => {
        if (count > 0 && live.questionPoll === undefined) {
          live.questionPoll = setInterval(
            () => void this.#scanInjected(live).catch(() => undefined),
            this.#options.pollMs ?? 1000,
          );
          live.questionPoll.unref();
        } else if (count === 0 && live.questionPoll !== undefined) {
          clearInterval(live.questionPoll);
          live.questionPoll = undefined;
        }
      },
    });
  }

  #drain(live: LiveRun): Message[] {
    const taken = live.pending.splice(0);
    if (taken.length === 0) return [];
    void this.#emit(live, 'messages-taken', { seqs: taken.map((entry) => entry.seq) });
    return taken.map((entry) => entry.message);
  }

  #armTimeout(live: LiveRun): void {
    const { timeoutMs, startedAt } = live.record;
    if (timeoutMs === undefined) return;
    const remaining = Math.max(0, (startedAt ?? Date.now()) + timeoutMs - Date.now());
    const abandonAfter = this.#options.abandonAfterMs ?? 5000;
    const deadline = setTimeout(() => {
      live.timedOut = true;
      live.controller.abort();
      const abandon = setTimeout(() => void this.#abandon(live), abandonAfter);
      abandon.unref();
      live.timers.push(abandon);
    }, remaining);
    deadline.unref();
    live.timers.push(deadline);
  }

  async #abandon(live: LiveRun): Promise<void> {
    if (live.lost || live.handback || !this.#live.has(live.record.id)) return;
    const { timeoutMs } = live.record;
    const done = await this.log
      .finish(
        live.record.id,
        'failed',
        {
          reason: 'timeout',
          error: `The run did not stop within ${this.#options.abandonAfterMs ?? 5000} ms of its timeout of ${timeoutMs} ms and was abandoned.`,
        },
        { attempt: live.attempt },
      )
      .catch(() => undefined);
    if (done === undefined) return;
    live.abandoned = true;
    for (const timer of live.timers) clearTimeout(timer);
    // The agent stays out of the pool (a stuck call may still use its tools); the session is free.
    this.#live.delete(live.record.id);
    live.resolveFinished();
    this.#ended(done.record, done.next);
  }

  /** Writes the final status; `stale` when an event (an injected message) arrived since `lastSeq`. */
  async #final(
    live: LiveRun,
    status: RunStatus,
    final: RunFinal,
    lastSeq?: number,
  ): Promise<'done' | 'stale' | 'lost'> {
    if (live.abandoned || live.lost) return 'lost';
    const done = await this.log.finish(live.record.id, status, final, {
      attempt: live.attempt,
      ...(lastSeq === undefined ? {} : { lastSeq }),
    });
    if (done === undefined) {
      const now = await this.log.get(live.record.id);
      if (now !== undefined && !isFinalStatus(now.status) && now.attempt === live.attempt) return 'stale';
      live.lost = true;
      return 'lost';
    }
    this.#live.delete(live.record.id);
    this.#ended(done.record, done.next);
    return 'done';
  }
}
