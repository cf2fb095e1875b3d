/** The `q` quantile of `values` by linear interpolation (NaN when empty). */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const lowValue = sorted[low] as number;
  return lowValue + ((sorted[high] as number) - lowValue) * (position - low);
}

/** The median of `values` (NaN when empty). */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

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
