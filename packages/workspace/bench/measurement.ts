/** How much work each measure does. */
export interface BenchSizes {
  rounds: number;
  /** Appends per round to one session. */
  appendsOneSession: number;
  /** Appends per session per round across 100 sessions. */
  appendsPerSession: number;
  loadMessages: number;
  loadRepeats: number;
  searchMessages: number;
  searchRepeats: number;
}

/** One measured quantity for the store and its baseline; `time` is what the ratio compares. */
export interface Measurement {
  measure: string;
  store: { value: number; unit: string; note?: string };
  baseline: { value: number; unit: string; note?: string };
  /** Store time ÷ baseline time for the same work (1.5 = the store takes 50% longer). */
  ratio: number;
}
