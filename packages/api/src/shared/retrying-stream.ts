import type { LlmError } from '../spec/llm-error.js';
import { AbortedError, NetworkError, StreamStallError } from '../spec/llm-error-classes.js';
import type { StreamEvent } from '../spec/stream-event.js';
import { abortableSleep } from './abort.js';
import { type AttemptAbortSlot, attachAttemptAbortSlot } from './attempt-abort.js';
import { type BatchSink, type BatchSourceControl, isBatchSource, START_BATCHES } from './batch-source.js';
import { decideRetry } from './retry-policy.js';
import { resolveStallLimits } from './stall-timeouts.js';
import { type StallLimits, StallWatch } from './stall-watch.js';
import type { OpenStream, StreamEventBatch, StreamWithRetriesOptions } from './stream-batches.js';
import { toLlmError } from './to-llm-error.js';

/** Events held back until the first content event, so a retried attempt repeats nothing. */
const HELD_EVENT_TYPES: ReadonlySet<StreamEvent['type']> = new Set([
  'message-start',
  'usage',
  'text-start',
  'thinking-start',
  'tool-call-start',
]);

/** How long a finished stream may take to deliver the end of its body before the connection is cut. */
const DRAIN_LIMIT_MS = 2_000;

/** Events queued for a caller that is behind before a push source is paused (resumed once it catches up). */
const HIGH_WATER_EVENTS = 4_096;

const NO_STALL: StallLimits = {
  firstByteMs: Number.POSITIVE_INFINITY,
  idleMs: Number.POSITIVE_INFINITY,
  keepAliveMs: Number.POSITIVE_INFINITY,
};

/** One attempt: its controller, stall timers and source; callbacks from an attempt no longer current are ignored. */
interface Attempt {
  readonly index: number;
  /** Aborts the attempt's request (a stall, the caller's abort, a cancel); its signal goes to `open`. */
  readonly controller: AbortController;
  /** Where the attempt's request waits to be aborted (no listener on the signal; see `attempt-abort.ts`). */
  readonly abortSlot: AttemptAbortSlot;
  readonly watch: StallWatch;
  held: StreamEvent[];
  /** Push source: its flow control once started. */
  control: BatchSourceControl | undefined;
  /** Pull source: its iterator, and whether a `next()` is in flight. */
  iterator: AsyncIterator<StreamEventBatch> | undefined;
  pulling: boolean;
  paused: boolean;
  /** Over: failed, cancelled, or ended (then possibly still draining its body). */
  closed: boolean;
  /** Set while a finished attempt's body is drained: called once it has ended (or failed). */
  drained: (() => void) | undefined;
  /** Listens to the caller's signal, when there is one. */
  onCallerAbort: () => void;
}

/**
 * The engine of `streamWithRetries`: one object that is the caller's iterator, the retry loop and
 * the stall watch at once. A push source ({@link isBatchSource}, e.g. `decodeSseStream` over an
 * undici body) delivers each network chunk's batch from the socket's `data` callback; the batch is
 * checked (held events, commit, terminal events) synchronously and queued, and the caller's pending
 * `next()` is the only promise on the way: one promise per caller pull, as with a bare callback
 * parser. A pull source (any async iterable) is read one item per caller demand, as before.
 * Retries wrap only the part before the first content event (nothing reached the caller yet).
 */
export class RetryingStream implements AsyncIterableIterator<StreamEvent> {
  private readonly queue: StreamEvent[] = [];
  private head = 0;
  private pending: { resolve(result: IteratorResult<StreamEvent>): void } | undefined;
  private started = false;
  private finished = false;
  private committed = false;
  private attempt: Attempt | undefined;
  private readonly limits: StallLimits;
  private readonly provider: { providerId?: string };

  constructor(
    private readonly open: OpenStream,
    private readonly options: StreamWithRetriesOptions,
  ) {
    this.limits = options.stall === false ? NO_STALL : resolveStallLimits(options.stall ?? {});
    this.provider = options.providerId === undefined ? {} : { providerId: options.providerId };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<StreamEvent> {
    return this;
  }

  next(): Promise<IteratorResult<StreamEvent>> {
    if (this.head < this.queue.length) return Promise.resolve({ value: this.take(), done: false });
    if (this.finished) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.pending = { resolve };
      if (!this.started) {
        this.started = true;
        this.startAttempt(0);
      } else {
        this.demand();
      }
    });
  }

  return(): Promise<IteratorResult<StreamEvent>> {
    this.queue.length = 0;
    this.head = 0;
    const attempt = this.attempt;
    if (!this.finished) {
      this.finished = true;
      if (attempt !== undefined && !attempt.closed) this.close(attempt, false);
    }
    this.pending?.resolve({ value: undefined, done: true });
    this.pending = undefined;
    return Promise.resolve({ value: undefined, done: true });
  }

  private take(): StreamEvent {
    const event = this.queue[this.head] as StreamEvent;
    this.head += 1;
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    }
    return event;
  }

  /** The caller waits and nothing is queued: time the wait, and ask the source for more. */
  private demand(): void {
    const attempt = this.attempt;
    if (attempt === undefined || attempt.closed) return;
    attempt.watch.wait();
    if (attempt.paused) {
      attempt.paused = false;
      attempt.control?.resume();
    }
    if (attempt.iterator !== undefined && !attempt.pulling) this.pull(attempt);
  }

  /** Hands the head of the queue (or the end) to a waiting caller. */
  private flush(): void {
    const pending = this.pending;
    if (pending === undefined) return;
    if (this.head < this.queue.length) {
      this.pending = undefined;
      pending.resolve({ value: this.take(), done: false });
    } else if (this.finished) {
      this.pending = undefined;
      pending.resolve({ value: undefined, done: true });
    } else {
      this.demand();
    }
  }

  private finish(event: StreamEvent | undefined): void {
    if (event !== undefined) this.queue.push(event);
    this.finished = true;
    this.attempt = undefined;
    this.flush();
  }

  private startAttempt(index: number): void {
    const signal = this.options.signal;
    if (signal?.aborted === true) {
      this.finish({ type: 'error', error: this.aborted() });
      return;
    }
    // One listener per attempt, on the caller's signal: a stall is reported by the watch itself, so
    // nothing listens to the attempt's own signal (an `addEventListener` per request saved).
    const controller = new AbortController();
    const attempt: Attempt = {
      index,
      controller,
      abortSlot: attachAttemptAbortSlot(controller.signal),
      watch: new StallWatch(this.limits, (stallKind, timeoutMs) => {
        const stall = new StreamStallError({ ...this.provider, stallKind, timeoutMs });
        abortAttempt(attempt, stall);
        this.fail(attempt, stall);
      }),
      held: [],
      control: undefined,
      iterator: undefined,
      pulling: false,
      paused: false,
      closed: false,
      drained: undefined,
      // The caller's abort ends the attempt at once, without waiting for the source to notice.
      onCallerAbort: () => {
        abortAttempt(attempt, signal?.reason);
        this.fail(attempt, this.aborted());
      },
    };
    this.attempt = attempt;
    signal?.addEventListener('abort', attempt.onCallerAbort, { once: true });
    // The first-byte timer covers opening too (connect and headers).
    attempt.watch.wait();
    let source: ReturnType<OpenStream>;
    try {
      source = this.open(index, controller.signal);
    } catch (error) {
      this.fail(attempt, error);
      return;
    }
    if (isPromiseLike(source)) {
      source.then(
        (opened) => this.connect(attempt, opened),
        (error: unknown) => this.fail(attempt, error),
      );
    } else {
      this.connect(attempt, source);
    }
  }

  private connect(attempt: Attempt, source: AsyncIterable<StreamEventBatch>): void {
    if (attempt.closed) return;
    if (isBatchSource(source)) {
      const sink: BatchSink = {
        batch: (events) => this.receive(attempt, events),
        end: () => (attempt.drained === undefined ? this.ended(attempt) : attempt.drained()),
        fail: (error) => (attempt.drained === undefined ? this.fail(attempt, error) : attempt.drained()),
      };
      attempt.control = source[START_BATCHES](sink);
      if (attempt.closed) attempt.control.cancel();
      return;
    }
    attempt.iterator = source[Symbol.asyncIterator]();
    this.pull(attempt);
  }

  private pull(attempt: Attempt): void {
    const iterator = attempt.iterator as AsyncIterator<StreamEventBatch>;
    attempt.pulling = true;
    iterator.next().then(
      (result) => {
        attempt.pulling = false;
        if (result.done === true) this.ended(attempt);
        else this.receive(attempt, isBatch(result.value) ? result.value : [result.value]);
      },
      (error: unknown) => {
        attempt.pulling = false;
        this.fail(attempt, error);
      },
    );
  }

  /** One batch of the current attempt: held, committed and queued, or the attempt's failure. */
  private receive(attempt: Attempt, events: readonly StreamEvent[]): void {
    if (attempt.closed) return;
    // A keep-alive (empty batch) only feeds the stall timers: it is not content, so it neither
    // ends the retry window nor reaches the caller.
    attempt.watch.item(events.length === 0);
    for (const event of events) {
      if (event.type === 'error') {
        this.fail(attempt, event.error);
        return;
      }
      if (!this.committed) {
        if (HELD_EVENT_TYPES.has(event.type)) {
          attempt.held.push(event);
          continue;
        }
        this.committed = true;
        for (const held of attempt.held) this.queue.push(held);
        attempt.held = [];
      }
      this.queue.push(event);
      if (event.type === 'message-end') {
        this.drain(attempt);
        this.finish(undefined);
        return;
      }
    }
    if (
      this.pending === undefined &&
      !attempt.paused &&
      attempt.control !== undefined &&
      this.queue.length - this.head > HIGH_WATER_EVENTS
    ) {
      attempt.paused = true;
      attempt.control.pause();
    }
    this.flush();
  }

  /** The source ended without a throw; without `message-end` the connection was probably cut. */
  private ended(attempt: Attempt): void {
    if (attempt.closed) return;
    const who = this.options.providerId === undefined ? 'the provider' : `provider "${this.options.providerId}"`;
    this.fail(
      attempt,
      new NetworkError({
        ...this.provider,
        message: `The stream from ${who} ended before the message was complete (no message end); the connection was probably cut.`,
      }),
    );
  }

  private fail(attempt: Attempt, error: unknown): void {
    if (attempt.closed || attempt !== this.attempt) return;
    this.close(attempt, false);
    let failure: LlmError = toLlmError(error, this.context());
    if (this.options.signal?.aborted === true) failure = this.aborted();
    const decision = this.committed ? ({ retry: false } as const) : decideRetry(failure, attempt.index, this.options);
    if (!decision.retry) {
      this.finish({ type: 'error', error: failure });
      return;
    }
    this.attempt = undefined;
    this.options.onRetry?.({ attempt: attempt.index + 1, delayMs: decision.delayMs, error: failure });
    const sleep = this.options.sleep ?? abortableSleep;
    sleep(decision.delayMs, this.options.signal).then(
      () => {
        if (!this.finished) this.startAttempt(attempt.index + 1);
      },
      () => {
        if (!this.finished) this.finish({ type: 'error', error: this.aborted() });
      },
    );
  }

  /** Ends an attempt: timers off, listener on the caller's signal removed, request aborted unless it ended. */
  private close(attempt: Attempt, ended: boolean): void {
    attempt.closed = true;
    attempt.watch.stop();
    this.options.signal?.removeEventListener('abort', attempt.onCallerAbort);
    if (!ended) {
      abortAttempt(attempt, undefined);
      attempt.control?.cancel();
      attempt.iterator?.return?.()?.catch(() => undefined);
    }
  }

  /**
   * Reads what is left of a finished attempt's body (normally just its end) in the background, so
   * the keep-alive connection goes back to the pool instead of being cut; cut it if that takes too long.
   */
  private drain(attempt: Attempt): void {
    this.close(attempt, true);
    const limit = setTimeout(() => {
      abortAttempt(attempt, undefined);
      attempt.control?.cancel();
    }, DRAIN_LIMIT_MS);
    limit.unref?.();
    const done = () => clearTimeout(limit);
    if (attempt.control !== undefined) {
      // Events after message-end are not part of the message: the attempt is closed, so its batches
      // are dropped and only the end of the body is awaited.
      attempt.drained = done;
      attempt.control.resume();
      return;
    }
    const iterator = attempt.iterator;
    if (iterator === undefined) {
      done();
      return;
    }
    void (async () => {
      try {
        while ((await iterator.next()).done !== true) {
          // Events after message-end are not part of the message.
        }
      } catch {
        // The message is complete; a failure while reading the rest of the body changes nothing.
      } finally {
        done();
      }
    })();
  }

  private context() {
    return {
      ...this.provider,
      ...(this.options.signal === undefined ? {} : { signal: this.options.signal }),
      ...(this.options.rules === undefined ? {} : { rules: this.options.rules }),
    };
  }

  private aborted(): AbortedError {
    return new AbortedError({ ...this.provider, cause: this.options.signal?.reason });
  }
}

/** Aborts an attempt's signal and, through its slot, the request in flight (which has no listener on it). */
function abortAttempt(attempt: Attempt, reason: unknown): void {
  attempt.controller.abort(reason);
  attempt.abortSlot.request?.abortRequest(attempt.controller.signal.reason);
}

function isBatch(item: StreamEventBatch): item is readonly StreamEvent[] {
  return Array.isArray(item);
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as PromiseLike<T> | undefined)?.then === 'function';
}
