import { availableParallelism } from 'node:os';
import { THREAD_START_TIMEOUT_MS, ThreadPool } from '../thread-pool/thread-pool.js';
import { resolveWorkerScript } from '../thread-pool/worker-script.js';
import type { JsEngineLimits, JsRun } from './quickjs-engine.js';

/** One js_exec call as sent to its worker thread. */
export interface JsExecTask {
  code: string;
  limits: JsEngineLimits;
}

/** Time past the deadline the engine gets to stop and print (its interrupt handler) before its thread is terminated, in ms. */
export const JS_EXEC_KILL_GRACE_MS = 500;
/** Time a cancelled call gets to stop by itself before its thread is terminated, in ms. */
const ABORT_GRACE_MS = 100;
/**
 * V8 heap cap of a js_exec thread, in MiB. The guest's own memory is the engine's WebAssembly
 * memory (capped by `memoryLimitBytes` + 16 MiB, outside this heap); this bounds the host side.
 */
const THREAD_HEAP_MB = 128;

let pool: ThreadPool | undefined;

function sharedPool(): ThreadPool {
  pool ??= new ThreadPool({
    script: () => resolveWorkerScript(import.meta.url, 'js-exec', 'js-exec-worker'),
    maxWorkers: Math.max(2, availableParallelism()),
    maxHeapMb: THREAD_HEAP_MB,
  });
  return pool;
}

/** What a call that never answered is reported as. */
function stoppedRun(outcome: JsRun['outcome'], started: number, error?: string): JsRun {
  return {
    outcome,
    console: '',
    truncated: false,
    durationMs: Date.now() - started,
    recreated: true,
    ...(error === undefined ? {} : { error }),
  };
}

/**
 * Evaluates `code` on a pooled worker thread: the host's event loop keeps running, the engine
 * stops itself at its deadline, and a thread that has not answered {@link JS_EXEC_KILL_GRACE_MS}
 * later (or 100 ms after an abort) is terminated. Both count from when the evaluation begins: a
 * call waiting for a free thread, or for a new one to start, keeps its whole time. Rejects only
 * when the engine could not start. A call no thread begins within `startTimeoutMs` ends as `busy`.
 */
export async function runJsInThread(
  code: string,
  limits: JsEngineLimits,
  signal: AbortSignal,
  startTimeoutMs: number = THREAD_START_TIMEOUT_MS,
): Promise<JsRun> {
  const started = Date.now();
  const outcome = await sharedPool().run<JsRun>({ code, limits } satisfies JsExecTask, {
    deadlineMs: limits.timeoutMs + JS_EXEC_KILL_GRACE_MS,
    signal,
    graceMs: ABORT_GRACE_MS,
    startTimeoutMs,
  });
  switch (outcome.status) {
    case 'ok':
      return outcome.value;
    case 'timed-out':
      return stoppedRun(outcome.stage === 'start' ? 'busy' : 'timed-out', started);
    case 'aborted':
      return stoppedRun('aborted', started);
    case 'out-of-memory':
      return stoppedRun('out-of-memory', started);
    case 'error':
    case 'crashed':
      throw new Error(outcome.message);
  }
}
