export { median, quantile } from '../../../scripts/bench-kit/stats.js';

/** Milliseconds since an arbitrary origin, sub-millisecond. */
export function now(): number {
  return performance.now();
}

/** Runs `work` and resolves with how long it took in ms. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = now();
  await work();
  return now() - start;
}
