import { availableParallelism } from 'node:os';
import { ThreadPool } from './thread-pool.js';

/**
 * A process-wide set of thread pools for one worker script, one pool per heap cap (a heap cap is a
 * property of a worker thread, so calls with different caps cannot share threads). Workers are
 * reused across calls and tools; at least two run at once, more on a larger machine.
 *
 * @param script Resolves the worker's entry (see `resolveWorkerScript`).
 * @returns The pool for a cap of `maxMemoryBytes` (at least 16 MiB), created on first use.
 */
export function heapCappedPools(script: () => Promise<URL>): (maxMemoryBytes: number) => ThreadPool {
  const pools = new Map<number, ThreadPool>();
  return (maxMemoryBytes) => {
    const maxHeapMb = Math.max(16, Math.ceil(maxMemoryBytes / (1024 * 1024)));
    let pool = pools.get(maxHeapMb);
    if (pool === undefined) {
      pool = new ThreadPool({ script, maxWorkers: Math.max(2, availableParallelism()), maxHeapMb });
      pools.set(maxHeapMb, pool);
    }
    return pool;
  };
}
