import type { FunctionHook } from '../types.js';
import { DEFAULT_HOOK_TIMEOUT_MS } from './hook-answer.js';

/** A function hook's raw return value, or why it produced none. */
export type FunctionHookRun = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Calls a function hook with an abort signal that fires on its timeout (default 60 s) or when the
 * run is cancelled. A throw, a rejection or a timeout is a failure; a hook that ignores the signal
 * is left behind and its late answer is dropped.
 */
export async function runFunctionHook<Event, Outcome>(
  hook: FunctionHook<Event, Outcome>,
  event: Event,
  runSignal: AbortSignal,
): Promise<FunctionHookRun> {
  const timeoutMs = hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  const controller = new AbortController();
  const onRunAbort = () => controller.abort(runSignal.reason);
  if (runSignal.aborted) return { ok: false, message: 'stopped because the run was cancelled' };
  runSignal.addEventListener('abort', onRunAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopped = new Promise<FunctionHookRun>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`hook timed out after ${timeoutMs} ms`));
      resolve({ ok: false, message: `timed out after ${timeoutMs} ms` });
    }, timeoutMs);
    controller.signal.addEventListener(
      'abort',
      () => {
        if (runSignal.aborted) resolve({ ok: false, message: 'stopped because the run was cancelled' });
      },
      { once: true },
    );
  });
  try {
    const running = Promise.resolve()
      .then(() => hook.run(event, controller.signal))
      .then(
        (value): FunctionHookRun => ({ ok: true, value }),
        (error: unknown): FunctionHookRun => ({
          ok: false,
          message: `threw: ${error instanceof Error ? error.message : String(error)}`,
        }),
      );
    return await Promise.race([running, stopped]);
  } finally {
    clearTimeout(timer);
    runSignal.removeEventListener('abort', onRunAbort);
  }
}
