import type { QueryEvent } from './events.js';
import type { QueryOutcome } from './outcome.js';

/**
 * Where the loop's core sends its events. `undefined` back: the consumer took the event at once and
 * the loop goes on without a microtask hop; a promise: the loop waits for it (the consumer pulls
 * events one at a time, or it stopped, and then the promise rejects with a {@link RunStopped}).
 */
export type EmitEvent = (event: QueryEvent) => Promise<void> | undefined;

/**
 * Thrown through the loop's core when its consumer stops it: a generator consumer that returned,
 * or an `onEvent` callback that threw (`cause`). The core's own `catch` blocks let it pass, so the
 * run unwinds as a generator closed at a `yield` does (the provider's stream is closed).
 */
export class RunStopped extends Error {
  constructor(readonly consumerError: unknown) {
    super('the run was stopped by its consumer');
    this.name = 'RunStopped';
  }
}

/** Whether `error` is the loop's own {@link RunStopped} (which no mechanism may swallow). */
export function isRunStopped(error: unknown): error is RunStopped {
  return error instanceof RunStopped;
}

/** An {@link EmitEvent} that hands each event to a callback at once (`runQueryToEnd`, sub-agents). */
export function callbackEmit(onEvent: ((event: QueryEvent) => void) | undefined): EmitEvent {
  if (onEvent === undefined) return () => undefined;
  return (event) => {
    try {
      onEvent(event);
    } catch (error) {
      throw new RunStopped(error);
    }
    return undefined;
  };
}

const CLOSED = new RunStopped(undefined);

/**
 * The hand-over between the loop's core and the `runQuery` async generator: the core waits in
 * `emit` until the generator's consumer asks for the next event, so the core never runs ahead of
 * its consumer (a consumer that stops after `turn-end` never starts that turn's tools).
 */
export class EventChannel {
  private event: QueryEvent | undefined;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private outcome: QueryOutcome | undefined;
  private wakeConsumer: (() => void) | undefined;
  private resumeCore: (() => void) | undefined;
  private stopCore: ((error: unknown) => void) | undefined;
  private closed = false;

  readonly emit: EmitEvent = (event) => {
    if (this.closed) throw CLOSED;
    this.event = event;
    this.wake();
    return new Promise<void>((resolve, reject) => {
      this.resumeCore = resolve;
      this.stopCore = reject;
    });
  };

  /** Watches the core's run: its outcome (or failure) ends the channel. */
  follow(run: Promise<QueryOutcome>): void {
    run.then(
      (outcome) => {
        this.outcome = outcome;
        this.ended = true;
        this.wake();
      },
      (error: unknown) => {
        if (!isRunStopped(error)) this.failure = { error };
        this.ended = true;
        this.wake();
      },
    );
  }

  /**
   * The next event, or `undefined` once the run ended (then {@link EventChannel.result} gives the
   * outcome). Resolves at once when one is waiting.
   */
  next(): Promise<QueryEvent | undefined> | QueryEvent | undefined {
    const event = this.take();
    if (event !== undefined || this.ended) return event;
    return new Promise<void>((resolve) => {
      this.wakeConsumer = resolve;
    }).then(() => this.take());
  }

  /** The outcome of an ended run; throws what the core failed with. */
  result(): QueryOutcome {
    if (this.failure !== undefined) throw this.failure.error;
    return this.outcome as QueryOutcome;
  }

  /** Lets the core go on past the event it last handed over. */
  resume(): void {
    const resume = this.resumeCore;
    this.resumeCore = undefined;
    this.stopCore = undefined;
    resume?.();
  }

  /** Stops the core at the event it waits on (the consumer returned early). */
  close(): void {
    this.closed = true;
    const stop = this.stopCore;
    this.resumeCore = undefined;
    this.stopCore = undefined;
    stop?.(CLOSED);
  }

  private take(): QueryEvent | undefined {
    const event = this.event;
    this.event = undefined;
    return event;
  }

  private wake(): void {
    const wake = this.wakeConsumer;
    if (wake !== undefined) {
      this.wakeConsumer = undefined;
      wake();
    }
  }
}
