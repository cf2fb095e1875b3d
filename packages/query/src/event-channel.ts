import type { QueryEvent } from './events.js';
import type { QueryOutcome } from './outcome.js';

/**
 * Where the loop's core sends its events. `undefined` back: the consumer took the event at once and
 * the loop goes on without a microtask hop; a promise: the loop waits for it (the consumer pulls
 * events one at a time, or it stopped, and then the promise rejects with a {@link RunStopped}).
 */
export type EmitEvent = (event: QueryEvent) => Promise<undefined> | undefined;
// The core writes `if (wait !== undefined) wait = await wait;`: the promise resolves to `undefined`,
// so the suspended core's frame does not keep the settled promise in its register afterwards (a
// `const wait` did: four settled promises per run held at a model call).

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
const NO_IDENTITY: Record<string, never> = {};

type Step = IteratorResult<QueryEvent, QueryOutcome>;

/** One call of `next`, `return` or `throw`, waiting for its turn (as an async generator queues them). */
interface Request {
  kind: 'next' | 'return' | 'throw';
  value: unknown;
  resolve(step: Step): void;
  reject(error: unknown): void;
}

/**
 * `runQuery`'s async generator, written by hand over the loop's core: the core waits in `emit`
 * until the consumer asks for the next event, so it never runs ahead of its consumer (one that
 * stops after `turn-end` never starts that turn's tools). `return()` stops the core at the event it
 * waits on and settles once it has unwound (the provider's stream closed); `throw(error)` raises
 * `error` there. Requests made while one runs are queued, as an async generator queues them.
 */
export class RunIterator<O, T> implements AsyncGenerator<QueryEvent, QueryOutcome> {
  private state: 'initial' | 'running' | 'suspended' | 'done' = 'initial';
  private current: Request | undefined;
  private queue: Request[] | undefined;
  private resumeCore: ((value: undefined) => void) | undefined;
  private stopCore: ((error: unknown) => void) | undefined;

  /**
   * `core(options, tree, identity, emit)` is called at the first `next()`: a module function and its
   * arguments rather than a closure over them (one closure and its context fewer per run).
   */
  constructor(
    private readonly core: (
      options: O,
      tree: T,
      identity: Record<string, never>,
      emit: EmitEvent,
    ) => Promise<QueryOutcome>,
    private readonly options: O,
    private readonly tree: T,
  ) {}

  next(): Promise<Step> {
    return this.request('next', undefined);
  }

  return(value: QueryOutcome | PromiseLike<QueryOutcome>): Promise<Step> {
    return this.request('return', value);
  }

  throw(error: unknown): Promise<Step> {
    return this.request('throw', error);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private request(kind: Request['kind'], value: unknown): Promise<Step> {
    return new Promise<Step>((resolve, reject) => {
      const request: Request = { kind, value, resolve, reject };
      if (this.current === undefined) this.run(request);
      else if (this.queue === undefined) this.queue = [request];
      else this.queue.push(request);
    });
  }

  private run(request: Request): void {
    switch (this.state) {
      case 'initial':
        if (request.kind === 'next') {
          this.current = request;
          this.state = 'running';
          this.core(this.options, this.tree, NO_IDENTITY, this.emit).then(this.ended, this.failed);
          return;
        }
        this.state = 'done';
        this.answerDone(request);
        return;
      case 'suspended': {
        this.current = request;
        this.state = 'running';
        const resume = this.resumeCore as (value: undefined) => void;
        const stop = this.stopCore as (error: unknown) => void;
        this.resumeCore = undefined;
        this.stopCore = undefined;
        if (request.kind === 'next') resume(undefined);
        else stop(request.kind === 'return' ? CLOSED : request.value);
        return;
      }
      default:
        this.answerDone(request);
        this.nextRequest();
    }
  }

  /** A request to a finished run: `next` and `return` are done, `throw` rejects. */
  private answerDone(request: Request): void {
    if (request.kind === 'throw') request.reject(request.value);
    else
      request.resolve({ done: true, value: (request.kind === 'return' ? request.value : undefined) as QueryOutcome });
  }

  private nextRequest(): void {
    const request = this.queue?.shift();
    if (request !== undefined) this.run(request);
  }

  private readonly emit: EmitEvent = (event) => {
    const request = this.current as Request;
    // Stopped by `return()`: nothing more is handed over while the core unwinds.
    if (request.kind === 'return') throw CLOSED;
    this.current = undefined;
    this.state = 'suspended';
    const resumed = new Promise<undefined>((resolve, reject) => {
      this.resumeCore = resolve;
      this.stopCore = reject;
    });
    request.resolve({ done: false, value: event });
    this.nextRequest();
    return resumed;
  };

  private readonly ended = (outcome: QueryOutcome): void => {
    const request = this.current as Request;
    this.current = undefined;
    this.state = 'done';
    request.resolve({ done: true, value: (request.kind === 'return' ? request.value : outcome) as QueryOutcome });
    this.nextRequest();
  };

  private readonly failed = (error: unknown): void => {
    const request = this.current as Request;
    this.current = undefined;
    this.state = 'done';
    if (request.kind === 'return' && isRunStopped(error))
      request.resolve({ done: true, value: request.value as QueryOutcome });
    else request.reject(error);
    this.nextRequest();
  };
}
