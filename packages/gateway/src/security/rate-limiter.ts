/** A token bucket per key: `perMinute` requests, refilled continuously. */
export interface RateLimiter {
  /** Takes one request; returns 0 when allowed, else the seconds to wait. */
  take(key: string): number;
}

/** Creates a {@link RateLimiter}; `now` is injectable for tests. Idle buckets are dropped. */
export function createRateLimiter(perMinute: number, now: () => number = Date.now): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const ratePerMs = perMinute / 60_000;
  return {
    take(key) {
      const time = now();
      const bucket = buckets.get(key) ?? { tokens: perMinute, at: time };
      bucket.tokens = Math.min(perMinute, bucket.tokens + (time - bucket.at) * ratePerMs);
      bucket.at = time;
      if (buckets.size > 10_000) {
        for (const [name, other] of buckets) if (other.tokens >= perMinute) buckets.delete(name);
      }
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.ceil((1 - bucket.tokens) / ratePerMs / 1000);
    },
  };
}
