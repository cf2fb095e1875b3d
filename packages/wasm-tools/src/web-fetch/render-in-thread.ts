import { heapCappedPools } from '../thread-pool/heap-capped-pools.js';
import type { ThreadOutcome } from '../thread-pool/thread-pool.js';
import { resolveWorkerScript } from '../thread-pool/worker-script.js';
import type { RenderedPage, RenderTask } from './render-page.js';

/** Least time a conversion gets, in ms, even when the fetch used up most of the deadline. */
export const WEB_FETCH_MIN_CONVERSION_MS = 1_000;

/** The process-wide pools of conversion threads, one per heap cap. */
const poolFor = heapCappedPools(() => resolveWorkerScript(import.meta.url, 'web-fetch', 'html-worker'));

/**
 * Converts an HTML page on a pooled worker thread with a heap cap of `maxMemoryBytes`: the host's
 * event loop keeps running, and a conversion still going after `deadlineMs` (or 100 ms after an
 * abort) has its thread terminated. The wait for a free thread is bounded by the same time (the
 * fetch's deadline covers the whole call). Never rejects.
 */
export function renderInThread(
  task: RenderTask,
  deadlineMs: number,
  maxMemoryBytes: number,
  signal: AbortSignal,
): Promise<ThreadOutcome<RenderedPage>> {
  const limitMs = Math.max(WEB_FETCH_MIN_CONVERSION_MS, deadlineMs);
  return poolFor(maxMemoryBytes).run<RenderedPage>(task, {
    deadlineMs: limitMs,
    startTimeoutMs: limitMs,
    signal,
    graceMs: 100,
  });
}
