import type { IncomingHttpHeaders } from 'node:http';
import { type Dispatcher, errors } from 'undici';
import { type AbortableRequest, type AttemptAbortSlot, attemptAbortSlot } from './attempt-abort.js';
import type { BatchSourceControl } from './batch-source.js';
import type { BodyHandlers } from './body-handlers.js';

/** The marker of a {@link DispatchedBody}: a `Symbol.for` key, so two copies of this package agree. */
export const SUBSCRIBE_BODY: unique symbol = Symbol.for('boxagnts.api.subscribeBody') as never;

/** Bytes buffered for a body nobody reads yet before the socket is paused (undici's `Readable` default). */
const HIGH_WATER_BYTES = 65_536;

/** A response head as {@link dispatchStream} resolves it. */
export interface DispatchedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: DispatchedBody;
}

/** Whether `value` is a body {@link readBody} can subscribe to directly. */
export function isDispatchedBody(value: unknown): value is DispatchedBody {
  return typeof value === 'object' && value !== null && SUBSCRIBE_BODY in value;
}

/**
 * Sends one request with `dispatcher.dispatch()` and resolves at the response head. The body is
 * delivered straight from undici's `onResponseData` to one subscriber ({@link DispatchedBody}): no
 * `RequestHandler`, no `Readable`, no `data` event per read. The caller's `signal` aborts the request
 * (before or after the head) through the handler's controller: an attempt signal of
 * `streamWithRetries` through its abort slot (see `attempt-abort.ts`), any other with one listener.
 */
export function dispatchStream(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  signal: AbortSignal | undefined,
): Promise<DispatchedResponse> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason ?? new errors.RequestAbortedError());
      return;
    }
    const body = new DispatchedBody(signal, resolve, reject);
    dispatcher.dispatch(options, body);
  });
}

/**
 * One response: the dispatch handler, and the body as one subscription (or an async iterable of
 * byte chunks for other callers). Chunks that arrive before the subscriber are buffered (the socket
 * is paused past {@link HIGH_WATER_BYTES}) and handed over in a microtask after it subscribes.
 */
export class DispatchedBody implements Dispatcher.DispatchHandler, AsyncIterable<Uint8Array>, AbortableRequest {
  private controller: Dispatcher.DispatchController | undefined;
  private abortReason: unknown;
  private headSettled = false;
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private handlers: BodyHandlers | undefined;
  /** The body ended (`end`) or failed (`error`) before the subscriber saw it. */
  private outcome: { error: unknown } | 'end' | undefined;
  /** Over for the subscriber: ended, failed or cancelled. */
  private done = false;
  private pausedByReader = false;
  private readonly onAbort: (() => void) | undefined;
  /** The attempt's abort slot this request sits in (instead of a listener on the signal). */
  private slot: AttemptAbortSlot | undefined;

  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly resolveHead: (response: DispatchedResponse) => void,
    private readonly rejectHead: (error: unknown) => void,
  ) {
    const slot = attemptAbortSlot(signal);
    if (slot !== undefined && slot.request === undefined) {
      slot.request = this;
      this.slot = slot;
    } else if (signal !== undefined) {
      this.onAbort = () => this.abort(signal.reason ?? new errors.RequestAbortedError());
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  /** The attempt was aborted (what its slot calls, with the signal's reason). */
  abortRequest(reason: unknown): void {
    this.abort(reason ?? new errors.RequestAbortedError());
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.abortReason !== undefined) controller.abort(this.abortReason as Error);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.controller = controller;
    if (statusCode < 200 || this.headSettled) return; // 1xx informational answers
    this.headSettled = true;
    this.resolveHead({ status: statusCode, headers, body: this });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.done) return;
    const handlers = this.handlers;
    if (handlers === undefined || this.buffered.length > 0) {
      this.buffered.push(chunk);
      this.bufferedBytes += chunk.length;
      if (this.bufferedBytes >= HIGH_WATER_BYTES) controller.pause();
      return;
    }
    this.deliver(handlers, chunk);
  }

  onResponseEnd(): void {
    this.release();
    if (this.done) return;
    const handlers = this.handlers;
    if (handlers === undefined || this.buffered.length > 0) this.outcome = 'end';
    else this.end(handlers);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.release();
    if (!this.headSettled) {
      this.headSettled = true;
      this.done = true;
      this.rejectHead(error);
      return;
    }
    if (this.done) return;
    const handlers = this.handlers;
    if (handlers === undefined || this.buffered.length > 0) this.outcome = { error };
    else this.fail(handlers, error);
  }

  /**
   * Starts delivering the body to `handlers` (once per body): what {@link readBody} calls. A
   * `false` from `chunk`, a throw, or `cancel()` aborts the request (the connection is dropped).
   */
  [SUBSCRIBE_BODY](handlers: BodyHandlers): BatchSourceControl {
    if (this.handlers !== undefined) throw new Error('A response body can be read only once.');
    this.handlers = handlers;
    if (this.buffered.length > 0 || this.outcome !== undefined) queueMicrotask(() => this.flushBuffered(handlers));
    return {
      pause: () => {
        if (this.done) return;
        this.pausedByReader = true;
        this.controller?.pause();
      },
      resume: () => {
        if (this.done) return;
        this.pausedByReader = false;
        if (this.buffered.length === 0) this.controller?.resume();
      },
      cancel: () => {
        if (this.done) return;
        this.done = true;
        this.buffered = [];
        this.abort(new errors.RequestAbortedError());
      },
    };
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let finished: { error: unknown } | 'end' | undefined;
    let wake: (() => void) | undefined;
    const notify = () => {
      const waiting = wake;
      wake = undefined;
      waiting?.();
    };
    const control = this[SUBSCRIBE_BODY]({
      chunk: (chunk) => {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
        if (chunks.length >= 16) control.pause();
        notify();
        return true;
      },
      end: () => {
        finished = 'end';
        notify();
      },
      error: (error) => {
        finished = { error };
        notify();
      },
    });
    return {
      next: async () => {
        for (;;) {
          const chunk = chunks.shift();
          if (chunk !== undefined) {
            if (chunks.length === 0) control.resume();
            return { value: chunk, done: false };
          }
          if (finished === 'end') return { value: undefined, done: true };
          if (finished !== undefined) throw finished.error;
          await new Promise<void>((settle) => {
            wake = settle;
          });
        }
      },
      return: async () => {
        control.cancel();
        return { value: undefined, done: true };
      },
    };
  }

  private flushBuffered(handlers: BodyHandlers): void {
    while (this.buffered.length > 0 && !this.done) {
      const chunk = this.buffered.shift() as Buffer;
      this.bufferedBytes -= chunk.length;
      this.deliver(handlers, chunk);
    }
    if (this.done) return;
    const outcome = this.outcome;
    if (outcome === 'end') this.end(handlers);
    else if (outcome !== undefined) this.fail(handlers, outcome.error);
    else if (!this.pausedByReader) this.controller?.resume();
  }

  private deliver(handlers: BodyHandlers, chunk: Buffer): void {
    let more: boolean;
    try {
      more = handlers.chunk(chunk);
    } catch (error) {
      this.done = true;
      this.abort(new errors.RequestAbortedError());
      handlers.error(error);
      return;
    }
    if (!more && !this.done) {
      this.done = true;
      this.abort(new errors.RequestAbortedError());
    }
  }

  private end(handlers: BodyHandlers): void {
    this.done = true;
    try {
      handlers.end();
    } catch (error) {
      handlers.error(error);
    }
  }

  private fail(handlers: BodyHandlers, error: unknown): void {
    this.done = true;
    handlers.error(error);
  }

  /** Aborts the request now, or as soon as undici hands over its controller. */
  private abort(reason: unknown): void {
    this.release();
    if (this.controller === undefined) this.abortReason = reason;
    else if (!this.controller.aborted) this.controller.abort(reason as Error);
  }

  /** The request is over (or being aborted): stop listening to the caller's signal, or leave the slot. */
  private release(): void {
    if (this.slot !== undefined) {
      if (this.slot.request === this) this.slot.request = undefined;
      this.slot = undefined;
    } else if (this.onAbort !== undefined) this.signal?.removeEventListener('abort', this.onAbort);
  }
}
