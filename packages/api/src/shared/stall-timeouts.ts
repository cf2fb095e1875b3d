import { isLlmError } from '../spec/llm-error.js';
import { AbortedError, StreamStallError } from '../spec/llm-error-classes.js';

/** Stall timers of a stream; `0` or `Infinity` disables one. */
export interface StallOptions {
  /** Longest wait for the first item after the stream is opened (covers connect and headers). Default 60 s. */
  firstByteTimeoutMs?: number;
  /** Longest wait for each further item. Default 30 s. */
  idleTimeoutMs?: number;
}

/** The defaults of {@link StallOptions}. */
export const DEFAULT_STALL_OPTIONS = { firstByteTimeoutMs: 60_000, idleTimeoutMs: 30_000 } as const;

/** Options of {@link withStallTimeouts}. */
export interface WithStallTimeoutsOptions extends StallOptions {
  /** Aborted with a {@link StreamStallError} when a timer fires, which cancels the underlying request. */
  controller: AbortController;
  providerId?: string;
}

/**
 * Guards an async iterable with a first-item timer and a between-items idle timer. Only items the
 * source yields count as progress: an adapter that reads keep-alive pings or SSE comments without
 * yielding anything lets the timer run out, so a stream sending only pings stalls. The time the
 * consumer spends on an item is not counted. On a stall the controller is aborted (cancelling the
 * request) and iteration throws a {@link StreamStallError}; when the controller is aborted for any
 * other reason, iteration throws at once without waiting for the source to notice.
 *
 * @example
 * const events = withStallTimeouts(readEvents(response.body), { controller, idleTimeoutMs: 20_000 });
 */
export function withStallTimeouts<T>(
  source: AsyncIterable<T> | PromiseLike<AsyncIterable<T>>,
  options: WithStallTimeoutsOptions,
): AsyncIterable<T> {
  const firstByteTimeoutMs = options.firstByteTimeoutMs ?? DEFAULT_STALL_OPTIONS.firstByteTimeoutMs;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_STALL_OPTIONS.idleTimeoutMs;
  const { controller } = options;
  const providerId = options.providerId === undefined ? {} : { providerId: options.providerId };
  const enabled = (ms: number) => ms > 0 && Number.isFinite(ms);

  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      let iterator: AsyncIterator<T> | undefined;
      let received = false;
      let finished = false;
      // One watchdog timer per stream instead of a timer per item: each item only stamps the time,
      // and the timer re-arms itself for what is left. `waitingSince` is undefined while the consumer
      // holds an item, so its time is not counted.
      let waitingSince: number | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
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
      const watch = () => {
        timer = undefined;
        if (finished || controller.signal.aborted) return;
        const limit = received ? idleTimeoutMs : firstByteTimeoutMs;
        if (waitingSince === undefined) {
          arm(limit);
          return;
        }
        const elapsed = performance.now() - waitingSince;
        if (elapsed >= limit) {
          const stallKind = received ? 'idle' : 'first-byte';
          controller.abort(new StreamStallError({ ...providerId, stallKind, timeoutMs: limit }));
        } else {
          arm(limit - elapsed);
        }
      };
      const arm = (delay: number) => {
        if (!enabled(received ? idleTimeoutMs : firstByteTimeoutMs) || timer !== undefined) return;
        timer = setTimeout(watch, Math.max(1, delay));
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
          waitingSince = performance.now();
          arm(received ? idleTimeoutMs : firstByteTimeoutMs);
          return new Promise<IteratorResult<T>>((resolve, reject) => {
            rejectPending = reject;
            pull().then(
              (result) => {
                rejectPending = undefined;
                waitingSince = undefined;
                if (result.done === true) stop();
                else received = true;
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
