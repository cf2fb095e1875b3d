/** What `GET /usage?groupBy=` groups by (`day` is the UTC date, `YYYY-MM-DD`). */
export type UsageGroupJson = 'day' | 'model' | 'provider' | 'agent' | 'session';

/** One group's totals. */
export interface UsageRowJson {
  key: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  costUsd: number;
}

/** `GET /usage`. */
export interface UsageReportJson {
  groupBy: UsageGroupJson;
  rows: UsageRowJson[];
}
