import { type Kysely, sql } from 'kysely';
import type { StoreDatabase } from './store-database.js';

/** The timeout a job gets when none is given: BoxAgnts' own default of 180 seconds. */
export const DEFAULT_CRON_TIMEOUT_MS = 180_000;

function statements(kind: 'sqlite' | 'postgres'): string[] {
  const time = kind === 'sqlite' ? 'INTEGER' : 'BIGINT';
  const real = kind === 'sqlite' ? 'REAL' : 'DOUBLE PRECISION';
  return [
    `CREATE TABLE cron_jobs (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      description TEXT NOT NULL DEFAULT '',
      schedule TEXT NOT NULL,
      timezone TEXT NOT NULL DEFAULT 'UTC',
      prompt TEXT NOT NULL,
      agent TEXT,
      model TEXT,
      timeout_ms ${time} NOT NULL DEFAULT ${DEFAULT_CRON_TIMEOUT_MS},
      budget_usd ${real},
      enabled INTEGER NOT NULL DEFAULT 1,
      overlap TEXT NOT NULL DEFAULT 'skip' CHECK (overlap IN ('skip', 'allow', 'queue')),
      catch_up TEXT NOT NULL DEFAULT 'skip' CHECK (catch_up IN ('skip', 'run-once')),
      created_at ${time} NOT NULL,
      updated_at ${time} NOT NULL,
      scheduled_from ${time} NOT NULL,
      last_scheduled_for ${time},
      next_run_at ${time}
    )`,
    `CREATE TABLE cron_runs (
      id TEXT PRIMARY KEY,
      job_id TEXT NOT NULL REFERENCES cron_jobs(id) ON DELETE CASCADE,
      scheduled_for ${time} NOT NULL,
      trigger TEXT NOT NULL DEFAULT 'schedule' CHECK (trigger IN ('schedule', 'catch-up', 'manual')),
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'success', 'failed', 'skipped')),
      started_at ${time},
      finished_at ${time},
      outcome TEXT,
      error TEXT,
      cost_usd ${real},
      session_id TEXT,
      run_id TEXT,
      UNIQUE (job_id, scheduled_for)
    )`,
    'CREATE INDEX cron_runs_live ON cron_runs (status, job_id)',
  ];
}

interface V1Job {
  id: string;
  name: string;
  schedule: string;
  payload: string;
  enabled: number;
  created_at: number;
  updated_at: number;
  last_run_at: number | null;
  next_run_at: number | null;
}

interface V1Run {
  id: string;
  job_id: string;
  started_at: number;
  finished_at: number | null;
  status: string;
  output: string | null;
}

function payloadField(payload: string, field: string): string | undefined {
  try {
    const value = (JSON.parse(payload) as Record<string, unknown>)[field];
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Version 5: the cron tables get the columns a scheduled job and its log need. `cron_jobs` holds the
 * schedule, time zone, prompt, agent, model, timeout, budget and the overlap and catch-up policies;
 * `cron_runs` holds one row per occurrence (unique per job and scheduled instant) with its status,
 * start, end, outcome, error, cost, session and run. The v1 tables had no writer in any release, but
 * rows put there by hand are carried over (the payload's `prompt`, `agent` and `model` fields, and
 * each run's status) before the tables are rebuilt, since SQLite cannot change a CHECK constraint.
 */
export async function applySchemaV5(transaction: Kysely<StoreDatabase>, kind: 'sqlite' | 'postgres'): Promise<void> {
  const jobs = (await sql<V1Job>`SELECT * FROM cron_jobs`.execute(transaction)).rows;
  const runs = (await sql<V1Run>`SELECT * FROM cron_runs`.execute(transaction)).rows;
  await sql`DROP TABLE cron_runs`.execute(transaction);
  await sql`DROP TABLE cron_jobs`.execute(transaction);
  for (const statement of statements(kind)) await sql.raw(statement).execute(transaction);
  for (const job of jobs) {
    await transaction
      .insertInto('cron_jobs')
      .values({
        id: job.id,
        name: job.name,
        description: '',
        schedule: job.schedule,
        timezone: 'UTC',
        prompt: payloadField(job.payload, 'prompt') ?? '',
        agent: payloadField(job.payload, 'agent') ?? null,
        model: payloadField(job.payload, 'model') ?? null,
        timeout_ms: DEFAULT_CRON_TIMEOUT_MS,
        budget_usd: null,
        enabled: Number(job.enabled) === 0 ? 0 : 1,
        overlap: 'skip',
        catch_up: 'skip',
        created_at: Number(job.created_at),
        updated_at: Number(job.updated_at),
        scheduled_from: Number(job.updated_at),
        last_scheduled_for: job.last_run_at === null ? null : Number(job.last_run_at),
        next_run_at: job.next_run_at === null ? null : Number(job.next_run_at),
      })
      .execute();
  }
  for (const run of runs) {
    await transaction
      .insertInto('cron_runs')
      .values({
        id: run.id,
        job_id: run.job_id,
        scheduled_for: Number(run.started_at),
        trigger: 'schedule',
        status: run.status === 'succeeded' ? 'success' : run.status === 'running' ? 'running' : 'failed',
        started_at: Number(run.started_at),
        finished_at: run.finished_at === null ? null : Number(run.finished_at),
        outcome: null,
        error: run.status === 'failed' ? run.output : null,
        cost_usd: null,
        session_id: null,
        run_id: null,
      })
      .onConflict((conflict) => conflict.columns(['job_id', 'scheduled_for']).doNothing())
      .execute();
  }
}
