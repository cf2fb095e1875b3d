import type { CronJobsTable, CronRunsTable } from '../store/store-database.js';
import type { CronJob, CronRunEntry } from './cron-types.js';

const optionalNumber = (value: number | null): number | undefined => (value === null ? undefined : Number(value));

/** A `cron_jobs` row as the API's {@link CronJob}. */
export function cronJobFromRow(row: CronJobsTable): CronJob {
  const lastScheduledFor = optionalNumber(row.last_scheduled_for);
  const nextRunAt = optionalNumber(row.next_run_at);
  const budgetUsd = optionalNumber(row.budget_usd);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    cron: row.schedule,
    timezone: row.timezone,
    prompt: row.prompt,
    ...(row.agent === null ? {} : { agent: row.agent }),
    ...(row.model === null ? {} : { model: row.model }),
    timeoutMs: Number(row.timeout_ms),
    ...(budgetUsd === undefined ? {} : { budgetUsd }),
    enabled: Number(row.enabled) === 1,
    overlap: row.overlap,
    catchUp: row.catch_up,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    scheduledFrom: Number(row.scheduled_from),
    ...(lastScheduledFor === undefined ? {} : { lastScheduledFor }),
    ...(nextRunAt === undefined ? {} : { nextRunAt }),
  };
}

/** A `cron_runs` row as the API's {@link CronRunEntry}. */
export function cronRunFromRow(row: CronRunsTable): CronRunEntry {
  const entry: CronRunEntry = {
    id: row.id,
    jobId: row.job_id,
    scheduledFor: Number(row.scheduled_for),
    trigger: row.trigger,
    status: row.status,
  };
  if (row.started_at !== null) entry.startedAt = Number(row.started_at);
  if (row.finished_at !== null) entry.finishedAt = Number(row.finished_at);
  if (row.outcome !== null) entry.outcome = row.outcome;
  if (row.error !== null) entry.error = row.error;
  if (row.cost_usd !== null) entry.costUsd = Number(row.cost_usd);
  if (row.session_id !== null) entry.sessionId = row.session_id;
  if (row.run_id !== null) entry.runId = row.run_id;
  return entry;
}
