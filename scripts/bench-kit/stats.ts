// Statistics shared by the packages' benchmarks.
/** The median of `values` (NaN when empty). */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

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

/** Half the interquartile range relative to the median: how noisy the samples were. */
export function spread(values: readonly number[]): number {
  const middle = median(values);
  return middle === 0 ? 0 : (quantile(values, 0.75) - quantile(values, 0.25)) / 2 / middle;
}

/** The least-squares slope of `y` over `x` (NaN with fewer than two distinct `x`). */
export function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  let sumX = 0;
  let sumY = 0;
  for (const [x, y] of points) {
    sumX += x;
    sumY += y;
  }
  const meanX = sumX / n;
  const meanY = sumY / n;
  let covariance = 0;
  let variance = 0;
  for (const [x, y] of points) {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  }
  return variance === 0 ? Number.NaN : covariance / variance;
}
