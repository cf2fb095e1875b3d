import type {
  CronJobInputJson,
  CronJobJson,
  CronJobListJson,
  CronNextRunsJson,
  CronRunEntryJson,
  CronRunListJson,
} from '../../../src/http/api-types/index.js';
import { request } from './http';

const withSignal = (signal?: AbortSignal) => (signal === undefined ? {} : { signal });
const jobPath = (id: string) => `/cron/jobs/${encodeURIComponent(id)}`;

/** Every job, by name, with its next occurrence computed now. */
export function listCronJobs(signal?: AbortSignal) {
  return request<CronJobListJson>('/cron/jobs', withSignal(signal));
}

export function createCronJob(input: CronJobInputJson) {
  return request<CronJobJson>('/cron/jobs', { method: 'POST', body: input });
}

/** Changes the fields given (`null` clears agent, model or budget). */
export function updateCronJob(id: string, changes: Partial<CronJobInputJson>) {
  return request<CronJobJson>(jobPath(id), { method: 'PATCH', body: changes });
}

export function setCronJobEnabled(id: string, enabled: boolean) {
  return request<CronJobJson>(`${jobPath(id)}/${enabled ? 'enable' : 'disable'}`, { method: 'POST' });
}

export function deleteCronJob(id: string) {
  return request<void>(jobPath(id), { method: 'DELETE' });
}

/** Starts one run of the job now (its log row comes back at once, queued). */
export function runCronJobNow(id: string) {
  return request<CronRunEntryJson>(`${jobPath(id)}/run`, { method: 'POST' });
}

/** The job's run log, newest first. */
export function listCronRuns(id: string, signal?: AbortSignal) {
  return request<CronRunListJson>(`${jobPath(id)}/runs`, { query: { limit: 50 }, ...withSignal(signal) });
}

/** The next `count` occurrences of an expression in a zone (the gateway's CronError names the bad field). */
export function previewCronRuns(cron: string, timezone: string, count = 5, signal?: AbortSignal) {
  return request<CronNextRunsJson>('/cron/next-runs', {
    method: 'POST',
    body: { cron, timezone, count },
    ...withSignal(signal),
  });
}
