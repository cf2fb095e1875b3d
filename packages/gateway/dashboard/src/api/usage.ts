import type { UsageGroupJson, UsageReportJson } from '../../../src/http/api-types/index.js';
import { request } from './http';

/** Totals grouped by day, model, provider, agent or session, for calls in `[since, until)` (epoch ms). */
export function usageReport(groupBy: UsageGroupJson, range: { since?: number; until?: number }, signal?: AbortSignal) {
  return request<UsageReportJson>('/usage', {
    query: { groupBy, since: range.since, until: range.until },
    ...(signal === undefined ? {} : { signal }),
  });
}
