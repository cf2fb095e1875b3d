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
export function withStallTimeouts<T>(source: AsyncIterable<T>, options: WithStallTimeoutsOptions): AsyncIterable<T> {
  const firstByteTimeoutMs = options.firstByteTimeoutMs ?? DEFAULT_STALL_OPTIONS.firstByteTimeoutMs;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_STALL_OPTIONS.idleTimeoutMs;
  const { controller } = options;
  const providerId = options.providerId === undefined ? {} : { providerId: options.providerId };

  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      const iterator = source[Symbol.asyncIterator]();
      let received = false;
      let finished = false;

      const stop = () => {
        finished = true;
        iterator.return?.()?.catch(() => undefined);
      };

      return {
        async next(): Promise<IteratorResult<T>> {
          if (finished) return { value: undefined, done: true };
          const timeoutMs = received ? idleTimeoutMs : firstByteTimeoutMs;
          const stallKind = received ? 'idle' : 'first-byte';
          let timer: ReturnType<typeof setTimeout> | undefined;
          let onAbort: (() => void) | undefined;
          const interrupted = new Promise<never>((_resolve, reject) => {
            onAbort = () => {
              const reason: unknown = controller.signal.reason;
              reject(isLlmError(reason) ? reason : new AbortedError({ ...providerId, cause: reason }));
            };
            if (controller.signal.aborted) onAbort();
            else controller.signal.addEventListener('abort', onAbort, { once: true });
            if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
              timer = setTimeout(() => {
                controller.abort(new StreamStallError({ ...providerId, stallKind, timeoutMs }));
              }, timeoutMs);
            }
          });
          try {
            const result = await Promise.race([iterator.next(), interrupted]);
            if (result.done === true) finished = true;
            else received = true;
            return result;
          } catch (error) {
            stop();
            throw error;
          } finally {
            clearTimeout(timer);
            if (onAbort !== undefined) controller.signal.removeEventListener('abort', onAbort);
          }
        },
        async return(): Promise<IteratorResult<T>> {
          stop();
          return { value: undefined, done: true };
        },
      };
    },
  };
}
