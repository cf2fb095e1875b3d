/** What a host timer saw while a call ran: how many ticks fired and the longest gap between two. */
export interface TickReport {
  ticks: number;
  longestGapMs: number;
  elapsedMs: number;
}

/**
 * Runs `work` while a 20 ms interval in the host counts its ticks: if the work blocks the host's
 * event loop, the ticks stop and the longest gap grows to the length of the block.
 */
export async function withTickMonitor<T>(work: () => Promise<T>): Promise<{ value: T; report: TickReport }> {
  const started = Date.now();
  let last = started;
  let ticks = 0;
  let longestGapMs = 0;
  const timer = setInterval(() => {
    const now = Date.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
    ticks += 1;
  }, 20);
  try {
    const value = await work();
    const end = Date.now();
    longestGapMs = Math.max(longestGapMs, end - last);
    return { value, report: { ticks, longestGapMs, elapsedMs: end - started } };
  } finally {
    clearInterval(timer);
  }
}
