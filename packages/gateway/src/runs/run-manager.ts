import { randomUUID } from 'node:crypto';
import type { Message } from '@boxagnts/api';
import type { QueryOutcome } from '@boxagnts/query';
import type { Agent } from '../agent/create-agent.js';
import { GatewayError } from '../gateway-error.js';
import { eventData } from './event-data.js';
import {
  type BusyPolicy,
  isFinalStatus,
  type RestartPolicy,
  type RunEvent,
  type RunLog,
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
  /** After a gateway restart; default `resume`. */
  onRestart?: RestartPolicy;
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
}

/** The final event of every run; a stream ends after it. */
export const RUN_END_EVENT = 'run-end';

interface LiveRun {
  controller: AbortController;
  pending: Message[];
  /** Resolved (and replaced) on every appended event. */
  changed: { promise: Promise<void>; resolve: () => void };
  finished: Promise<RunRecord>;
  resolveFinished: (record: RunRecord) => void;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function statusOf(outcome: QueryOutcome): RunStatus {
  if (outcome.reason === 'cancelled') return 'cancelled';
  if (outcome.reason === 'error') return 'failed';
  return 'completed';
}

/**
 * Runs as durable jobs: a run is accepted at once (stored as `queued`), executed in the background,
 * one at a time per session (the busy policy decides what a second run does), and every event it
 * makes is stored with a sequence number before watchers see it, so a watcher can resume exactly
 * after the last event it got. After a restart, {@link RunManager.recover} finds unfinished runs.
 */
export class RunManager {
  readonly #options: RunManagerOptions;
  readonly #live = new Map<string, LiveRun>();
  readonly #activeBySession = new Map<string, string>();
  readonly #queueBySession = new Map<string, string[]>();
  #closing = false;

  constructor(options: RunManagerOptions) {
    this.#options = options;
  }

  get log(): RunLog {
    return this.#options.log;
  }

  /** Accepts a run and answers at once; it starts now, or after the session's current run (`enqueue`). */
  start(request: StartRunRequest): RunRecord {
    if (this.#closing)
      throw new GatewayError({ reason: 'conflict', message: 'The gateway is shutting down: retry on the next start.' });
    const agent = request.agent ?? this.#options.defaultAgent;
    if (!this.#options.hasAgent(agent)) {
      throw new GatewayError({
        reason: 'not-found',
        message: `No agent "${agent}": list the agents with GET /agents.`,
      });
    }
    const busy = request.busy ?? 'reject';
    const active = this.#activeBySession.get(request.sessionId);
    if (active !== undefined && busy === 'reject') {
      throw new GatewayError({
        reason: 'conflict',
        message: `Session "${request.sessionId}" is busy with run "${active}": wait for it, cancel it, or send "busy": "enqueue" or "interrupt".`,
      });
    }
    const limits = {
      ...(request.budgetUsd === undefined ? {} : { budgetUsd: request.budgetUsd }),
      ...(request.maxTurns === undefined ? {} : { maxTurns: request.maxTurns }),
    };
    const record = this.log.create({
      id: randomUUID(),
      sessionId: request.sessionId,
      agent,
      model: request.model,
      onRestart: request.onRestart ?? 'resume',
      input: request.input,
      limits,
    });
    this.#track(record.id);
    this.#append(record.id, 'run-queued', { sessionId: record.sessionId, agent, model: request.model ?? null });
    if (active === undefined) {
      this.#launch(record, false);
    } else {
      const queue = this.#queueBySession.get(request.sessionId) ?? [];
      if (busy === 'interrupt') {
        queue.unshift(record.id);
        this.#queueBySession.set(request.sessionId, queue);
        this.cancel(active);
      } else {
        queue.push(record.id);
        this.#queueBySession.set(request.sessionId, queue);
      }
    }
    return this.log.get(record.id) as RunRecord;
  }

  /** The run's record, or a `not-found` error. */
  get(runId: string): RunRecord {
    const record = this.log.get(runId);
    if (record === undefined) throw new GatewayError({ reason: 'not-found', message: `No run "${runId}".` });
    return record;
  }

  /** Resolves with the final record (at once for a finished run). */
  async wait(runId: string, signal?: AbortSignal): Promise<RunRecord> {
    const record = this.get(runId);
    const live = this.#live.get(runId);
    if (isFinalStatus(record.status) || live === undefined) return record;
    if (signal === undefined) return live.finished;
    return Promise.race([
      live.finished,
      new Promise<RunRecord>((resolve) =>
        signal.addEventListener('abort', () => resolve(this.get(runId)), { once: true }),
      ),
    ]);
  }

  /** Cancels a queued or running run; a finished run is returned as it is. */
  cancel(runId: string): RunRecord {
    const record = this.get(runId);
    if (isFinalStatus(record.status)) return record;
    const queue = this.#queueBySession.get(record.sessionId);
    const index = queue?.indexOf(runId) ?? -1;
    if (queue !== undefined && index >= 0) {
      queue.splice(index, 1);
      this.#finish(runId, 'cancelled', { reason: 'cancelled' });
      return this.get(runId);
    }
    this.#live.get(runId)?.controller.abort();
    return this.get(runId);
  }

  /** Adds a user message to a queued or running run; the loop takes it before its next model call. */
  inject(runId: string, message: Message): RunEvent {
    const record = this.get(runId);
    const live = this.#live.get(runId);
    if (isFinalStatus(record.status) || live === undefined) {
      throw new GatewayError({
        reason: 'conflict',
        message: `Run "${runId}" is ${record.status}: start a new run on session "${record.sessionId}" instead.`,
      });
    }
    live.pending.push(message);
    return this.#append(runId, 'message-injected', { message });
  }

  /**
   * The run's events after `afterSeq`, from the log and then live, ending after the run's final
   * event (or when `signal` aborts). Several watchers can follow one run.
   */
  async *events(runId: string, afterSeq: number, signal?: AbortSignal): AsyncGenerator<RunEvent, void> {
    this.get(runId);
    let cursor = afterSeq;
    while (signal?.aborted !== true) {
      const changed = this.#live.get(runId)?.changed.promise;
      const batch = this.log.events(runId, cursor, 500);
      for (const event of batch) {
        yield event;
        cursor = event.seq;
        if (event.type === RUN_END_EVENT) return;
      }
      if (batch.length === 500) continue;
      if (changed === undefined) {
        // Not live here: finished, or left by an earlier process and not recovered. Nothing more will come.
        if (this.log.events(runId, cursor, 1).length === 0) return;
        continue;
      }
      await new Promise<void>((resolve) => {
        const onAbort = () => resolve();
        signal?.addEventListener('abort', onAbort, { once: true });
        void changed.then(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
  }

  /**
   * Handles what an earlier process left unfinished: a running run gets a `run-interrupted` event
   * and is resumed from its stored (repaired) history or marked `interrupted`, per its policy;
   * queued runs start in order.
   */
  recover(): { resumed: string[]; interrupted: string[]; started: string[] } {
    const report = { resumed: [] as string[], interrupted: [] as string[], started: [] as string[] };
    for (const record of this.log.list({ status: ['running', 'queued'] })) {
      if (this.#live.has(record.id)) continue;
      this.#track(record.id);
      if (record.status === 'running') {
        this.#append(record.id, 'run-interrupted', { reason: 'gateway-restart', policy: record.onRestart });
        if (record.onRestart === 'interrupt') {
          this.#finish(record.id, 'interrupted', {
            reason: 'interrupted',
            error: 'The gateway stopped during the run.',
          });
          report.interrupted.push(record.id);
          continue;
        }
        report.resumed.push(record.id);
      } else {
        report.started.push(record.id);
      }
      if (this.#activeBySession.has(record.sessionId)) {
        const queue = this.#queueBySession.get(record.sessionId) ?? [];
        queue.push(record.id);
        this.#queueBySession.set(record.sessionId, queue);
      } else {
        this.#launch(record, record.status === 'running');
      }
    }
    return report;
  }

  /** Stops every execution without finishing the runs (a later start recovers them per policy). */
  async close(): Promise<void> {
    this.#closing = true;
    const waits = [...this.#live.values()].map((live) => {
      live.controller.abort();
      return live.finished;
    });
    await Promise.race([Promise.all(waits), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  }

  #track(runId: string): LiveRun {
    let resolveFinished: (record: RunRecord) => void = () => {};
    const finished = new Promise<RunRecord>((resolve) => {
      resolveFinished = resolve;
    });
    const live: LiveRun = {
      controller: new AbortController(),
      pending: [],
      changed: deferred(),
      finished,
      resolveFinished,
    };
    this.#live.set(runId, live);
    return live;
  }

  #append(runId: string, type: string, data: Record<string, unknown>): RunEvent {
    const event = this.log.append(runId, type, data);
    const live = this.#live.get(runId);
    if (live !== undefined) {
      const previous = live.changed;
      live.changed = deferred();
      previous.resolve();
    }
    return event;
  }

  #finish(runId: string, status: RunStatus, final: { reason?: string; text?: string; error?: string }): void {
    this.#append(runId, RUN_END_EVENT, { status, ...final });
    const record = this.log.setStatus(runId, status, final) as RunRecord;
    const live = this.#live.get(runId);
    this.#live.delete(runId);
    live?.changed.resolve();
    live?.resolveFinished(record);
    try {
      this.#options.onRunEnd?.(record);
    } catch {
      // A failing log sink must not break the run's bookkeeping.
    }
  }

  #launch(record: RunRecord, resuming: boolean): void {
    this.#activeBySession.set(record.sessionId, record.id);
    void this.#execute(record, resuming).finally(() => {
      if (this.#activeBySession.get(record.sessionId) === record.id) this.#activeBySession.delete(record.sessionId);
      if (this.#closing) return;
      const queue = this.#queueBySession.get(record.sessionId);
      const nextId = queue?.shift();
      if (queue !== undefined && queue.length === 0) this.#queueBySession.delete(record.sessionId);
      if (nextId !== undefined) this.#launch(this.get(nextId), this.get(nextId).status === 'running');
    });
  }

  async #execute(record: RunRecord, resuming: boolean): Promise<void> {
    const live = this.#live.get(record.id) as LiveRun;
    this.log.setStatus(record.id, 'running');
    let release: (() => void) | undefined;
    try {
      const lease = await this.#options.acquireAgent(record.agent, record.model);
      release = lease.release;
      const agent = lease.agent;
      const input = record.input as Message[];
      const stored = (await agent.workspace.store.sessions.get(record.sessionId))?.messageCount ?? 0;
      const runInput = resuming ? this.#unstoredInput(record.id, stored, input) : input;
      this.#append(record.id, resuming ? 'run-resumed' : 'run-started', { storedMessages: stored });
      const run = agent.run(runInput, {
        sessionId: record.sessionId,
        signal: live.controller.signal,
        pending: { drain: () => live.pending.splice(0) },
        config: record.limits,
      });
      for await (const event of run) {
        if (event.type === 'done') continue;
        this.#append(record.id, event.type, eventData(event));
      }
      const outcome = await run.outcome;
      if (this.#closing) return;
      this.#append(record.id, 'done', eventData({ type: 'done', outcome }));
      this.#finish(record.id, statusOf(outcome), {
        reason: outcome.reason,
        text: outcome.text,
        ...(outcome.reason === 'error' ? { error: outcome.error } : {}),
      });
    } catch (error) {
      if (this.#closing) return;
      this.#finish(record.id, 'failed', { reason: 'error', error: (error as Error).message ?? String(error) });
    } finally {
      release?.();
      if (this.#closing) this.#live.get(record.id)?.resolveFinished(this.get(record.id));
    }
  }

  /**
   * On resume, the run's input unless the session stored it already: the loop stores it before its
   * first model call, so the session then holds more messages than when the run started.
   */
  #unstoredInput(runId: string, storedNow: number, input: Message[]): Message[] | undefined {
    const started = this.log.events(runId, 0).find((event) => event.type === 'run-started');
    const before = started?.data.storedMessages;
    if (typeof before !== 'number') return input;
    return storedNow > before ? undefined : input;
  }
}
