import { isLlmError } from '../spec/llm-error.js';
import { AbortedError, StreamStallError } from '../spec/llm-error-classes.js';
import { type StallLimits, StallWatch, stallLimit } from './stall-watch.js';

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
  const limits = resolveStallLimits(options);
  const { controller, isKeepAlive } = options;
  const providerId = options.providerId === undefined ? {} : { providerId: options.providerId };

  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      let iterator: AsyncIterator<T> | undefined;
      let finished = false;
      let rejectPending: ((error: unknown) => void) | undefined;
      const watch = new StallWatch(limits, (stallKind, timeoutMs) =>
        controller.abort(new StreamStallError({ ...providerId, stallKind, timeoutMs })),
      );

      const interruption = (): unknown => {
        const reason: unknown = controller.signal.reason;
        return isLlmError(reason) ? reason : new AbortedError({ ...providerId, cause: reason });
      };
      const onAbort = () => rejectPending?.(interruption());
      const stop = () => {
        finished = true;
        watch.stop();
        controller.signal.removeEventListener('abort', onAbort);
        iterator?.return?.()?.catch(() => undefined);
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
          watch.wait();
          return new Promise<IteratorResult<T>>((resolve, reject) => {
            rejectPending = reject;
            pull().then(
              (result) => {
                rejectPending = undefined;
                if (result.done === true) stop();
                else watch.item(isKeepAlive?.(result.value) === true);
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

/** The limits of `options` with the defaults filled in; `0` or a non-finite value switches one off. */
export function resolveStallLimits(options: StallOptions): StallLimits {
  return {
    firstByteMs: stallLimit(options.firstByteTimeoutMs ?? DEFAULT_STALL_OPTIONS.firstByteTimeoutMs),
    idleMs: stallLimit(options.idleTimeoutMs ?? DEFAULT_STALL_OPTIONS.idleTimeoutMs),
    keepAliveMs: stallLimit(options.keepAliveTimeoutMs ?? DEFAULT_STALL_OPTIONS.keepAliveTimeoutMs),
  };
}
