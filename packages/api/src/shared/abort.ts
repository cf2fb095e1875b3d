import { AbortedError } from '../spec/llm-error-classes.js';

/** A child controller that aborts when `parent` does; call `dispose()` to detach it from the parent. */
export interface LinkedAbortController {
  controller: AbortController;
  dispose(): void;
}

/**
 * Creates an `AbortController` linked to an optional parent signal, so one attempt of a call can be
 * aborted (by a stall timer) without aborting the caller, and the caller's abort reaches the attempt.
 * Unlike `AbortSignal.any`, the link is removed deterministically on `dispose()`.
 */
export function linkAbortController(parent: AbortSignal | undefined): LinkedAbortController {
  const controller = new AbortController();
  if (parent === undefined) return { controller, dispose: () => undefined };
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, dispose: () => undefined };
  }
  const forward = () => controller.abort(parent.reason);
  parent.addEventListener('abort', forward, { once: true });
  return { controller, dispose: () => parent.removeEventListener('abort', forward) };
}

/**
 * Waits `ms` milliseconds; rejects with an {@link AbortedError} at once when `signal` aborts, so a
 * backoff never outlives a cancelled run.
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(new AbortedError({ cause: signal.reason }));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError({ cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
