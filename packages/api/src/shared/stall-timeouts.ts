import { isLlmError } from '../spec/llm-error.js';
import { AbortedError, StreamStallError, type StreamStallKind } from '../spec/llm-error-classes.js';

/** Stall timers of a stream; `0` or `Infinity` disables one. */
export interface StallOptions {
  /**
   * Longest wait for the first item after the stream is opened (covers connect and headers). A
   * keep-alive restarts the wait. Default 60 s.
   */
  firstByteTimeoutMs?: number;
  /** Longest wait for each further item; a keep-alive restarts the wait. Default 30 s. */
  idleTimeoutMs?: number;
  /**
   * Longest stretch with only keep-alives (pings, SSE comments) and no item, so a server that keeps
   * the connection warm but never answers still stalls. Default 600 s (10 min).
   */
  keepAliveTimeoutMs?: number;
}

/**
 * The defaults of {@link StallOptions}. `keepAliveTimeoutMs` is the official SDKs' default request
 * timeout: `DEFAULT_TIMEOUT = 600000; // 10 minutes` in both `openai` (openai-node) and
 * `@anthropic-ai/sdk`, the longest their own clients wait on a request, silent reasoning included.
 */
export const DEFAULT_STALL_OPTIONS = {
  firstByteTimeoutMs: 60_000,
  idleTimeoutMs: 30_000,
  keepAliveTimeoutMs: 600_000,
} as const;

/** Options of {@link withStallTimeouts}. */
export interface WithStallTimeoutsOptions<T = unknown> extends StallOptions {
  /** Aborted with a {@link StreamStallError} when a timer fires, which cancels the underlying request. */
  controller: AbortController;
  providerId?: string;
  /**
   * Whether an item is a keep-alive (the server is alive, but sent no content). A keep-alive restarts
   * the first-item or idle wait; `keepAliveTimeoutMs` bounds a stretch of nothing but keep-alives.
   * Without it every item is content.
   */
  isKeepAlive?(item: T): boolean;
}

/**
 * Guards an async iterable with three timers: a first-item timer, a between-items idle timer, and a
 * keep-alive-only timer. An item proves the server is alive and restarts the first-item or idle wait;
 * a keep-alive item (see `isKeepAlive`, e.g. a chunk holding only pings or SSE comments) does too,
 * so a model that reasons silently while its server sends keep-alives is not declared stalled. A
 * stretch of keep-alives with no other item, longer than `keepAliveTimeoutMs`, is a stall of its own
 * (`stallKind: 'keep-alive-only'`), so a server that pings forever still stalls. The time the
 * consumer spends on an item is not counted by any timer. On a stall the controller is aborted
 * (cancelling the request) and iteration throws a {@link StreamStallError}; when the controller is
 * aborted for any other reason, iteration throws at once without waiting for the source to notice.
 *
 * @example
 * const events = withStallTimeouts(readEvents(response.body), { controller, idleTimeoutMs: 20_000 });
 */
export function withStallTimeouts<T>(
  source: AsyncIterable<T> | PromiseLike<AsyncIterable<T>>,
  options: WithStallTimeoutsOptions<T>,
): AsyncIterable<T> {
  const firstByteTimeoutMs = limit(options.firstByteTimeoutMs ?? DEFAULT_STALL_OPTIONS.firstByteTimeoutMs);
  const idleTimeoutMs = limit(options.idleTimeoutMs ?? DEFAULT_STALL_OPTIONS.idleTimeoutMs);
  const keepAliveTimeoutMs = limit(options.keepAliveTimeoutMs ?? DEFAULT_STALL_OPTIONS.keepAliveTimeoutMs);
  const { controller, isKeepAlive } = options;
  const providerId = options.providerId === undefined ? {} : { providerId: options.providerId };

  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      let iterator: AsyncIterator<T> | undefined;
      let received = false;
      let finished = false;
      // One watchdog timer per stream instead of a timer per item: each item only stamps the time,
      // and the timer re-arms itself for what is left. `waitingSince` is undefined while the consumer
      // holds an item, so its time is not counted.
      let waitingSince: number | undefined;
      // The keep-alive-only stretch: the time spent waiting since the last content item (or the
      // start) up to the last keep-alive, and whether a keep-alive arrived in it at all.
      let quietMs = 0;
      let keepAlives = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let timerDue = 0;
      let rejectPending: ((error: unknown) => void) | undefined;

      const interruption = (): unknown => {
        const reason: unknown = controller.signal.reason;
        return isLlmError(reason) ? reason : new AbortedError({ ...providerId, cause: reason });
      };
      const onAbort = () => rejectPending?.(interruption());
      const stop = () => {
        finished = true;
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        controller.signal.removeEventListener('abort', onAbort);
        iterator?.return?.()?.catch(() => undefined);
      };
      /** Time left, after `waited` ms of the current wait, until the nearest timer runs out. */
      const left = (waited: number): number => {
        const wait = (received ? idleTimeoutMs : firstByteTimeoutMs) - waited;
        return keepAlives ? Math.min(wait, keepAliveTimeoutMs - quietMs - waited) : wait;
      };
      const stall = (stallKind: StreamStallKind, timeoutMs: number) =>
        controller.abort(new StreamStallError({ ...providerId, stallKind, timeoutMs }));
      const watch = () => {
        timer = undefined;
        // While the consumer holds an item nothing is timed; its next `next()` arms the timer again.
        if (finished || controller.signal.aborted || waitingSince === undefined) return;
        const now = performance.now();
        const waited = now - waitingSince;
        const wait = received ? idleTimeoutMs : firstByteTimeoutMs;
        if (waited >= wait) stall(received ? 'idle' : 'first-byte', wait);
        else if (keepAlives && quietMs + waited >= keepAliveTimeoutMs) stall('keep-alive-only', keepAliveTimeoutMs);
        else arm(now, left(waited));
      };
      /** Arms the watchdog for `delay` ms, unless it is already due no later (or no timer is on). */
      const arm = (now: number, delay: number) => {
        if (delay === Number.POSITIVE_INFINITY) return;
        const due = now + Math.max(1, delay);
        if (timer !== undefined) {
          if (timerDue <= due) return;
          clearTimeout(timer);
        }
        timerDue = due;
        timer = setTimeout(watch, due - now);
      };
      controller.signal.addEventListener('abort', onAbort, { once: true });

      const pull = async (): Promise<IteratorResult<T>> => {
        iterator ??= (await source)[Symbol.asyncIterator]();
        return iterator.next();
      };

      return {
        next(): Promise<IteratorResult<T>> {
          if (finished) return Promise.resolve({ value: undefined, done: true });
          if (controller.signal.aborted) {
            stop();
            return Promise.reject(interruption());
          }
          const since = performance.now();
          waitingSince = since;
          arm(since, left(0));
          return new Promise<IteratorResult<T>>((resolve, reject) => {
            rejectPending = reject;
            pull().then(
              (result) => {
                rejectPending = undefined;
                waitingSince = undefined;
                if (result.done === true) stop();
                else if (isKeepAlive?.(result.value) === true) {
                  quietMs += performance.now() - since;
                  keepAlives = true;
                } else {
                  received = true;
                  quietMs = 0;
                  keepAlives = false;
                }
                resolve(result);
              },
              (error: unknown) => {
                rejectPending = undefined;
                // An abort (ours on a stall, or the caller's) surfaces from the source as a generic
                // abort error: report the reason the controller was aborted with instead.
                const failure = controller.signal.aborted ? interruption() : error;
                stop();
                reject(failure);
              },
            );
          }).catch((error: unknown) => {
            stop();
            throw error;
          });
        },
        async return(): Promise<IteratorResult<T>> {
          stop();
          return { value: undefined, done: true };
        },
      };
    },
  };
}

/** A timer's limit in ms; `0`, a negative or a non-finite value disables it (`Infinity`). */
function limit(ms: number): number {
  return ms > 0 && Number.isFinite(ms) ? ms : Number.POSITIVE_INFINITY;
}
