import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { StoreBackend } from '../store/store-backend.js';
import type { CronJobsTable, CronRunsTable, StoreDatabase } from '../store/store-database.js';
import { toStoreError } from '../store/store-error.js';
import { CronError, isCronError } from './cron-error.js';
import { validateJobChanges, validateJobInput } from './cron-job-input.js';
import { cronJobFromRow, cronRunFromRow } from './cron-rows.js';
import { formatInTimezone, parseCronSchedule } from './cron-schedule.js';
import type { CronJob, CronJobChange, CronOccurrence, CronStore } from './cron-types.js';
import { createWriteBatcher } from './write-batcher.js';

/** Most occurrences one `nextRuns` call previews. */
export const MAX_CRON_PREVIEW = 1000;

async function run<T>(doing: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isCronError(error)) throw error;
    throw toStoreError(error, doing);
  }
}

function notFound(idOrName: string): CronError {
  return new CronError({
    reason: 'not-found',
    message: `There is no cron job ${JSON.stringify(idOrName)}: list the jobs to find its id or name.`,
  });
}

function nameTaken(name: string): CronError {
  return new CronError({
    reason: 'conflict',
    field: 'name',
    message: `A cron job named ${JSON.stringify(name)} exists already: pick another name, or update that job.`,
  });
}

async function findRow(database: Kysely<StoreDatabase>, idOrName: string): Promise<CronJobsTable | undefined> {
  if (typeof idOrName !== 'string' || idOrName === '' || idOrName.length > 200) return undefined;
  const byId = await database.selectFrom('cron_jobs').selectAll().where('id', '=', idOrName).executeTakeFirst();
  return byId ?? database.selectFrom('cron_jobs').selectAll().where('name', '=', idOrName).executeTakeFirst();
}

async function requireRow(database: Kysely<StoreDatabase>, idOrName: string): Promise<CronJobsTable> {
  const row = await findRow(database, idOrName);
  if (row === undefined) throw notFound(idOrName);
  return row;
}

function previewCount(count: number): number {
  if (!Number.isInteger(count) || count < 1 || count > MAX_CRON_PREVIEW) {
    throw new CronError({
      reason: 'invalid-job',
      field: 'count',
      message: `A preview lists 1 to ${MAX_CRON_PREVIEW} occurrences (got ${String(count)}).`,
    });
  }
  return count;
}

/**
 * The cron store over one backend (`store.cron` of `openStore`): jobs with their schedule, zone,
 * prompt, limits and policies, and a log row per occurrence. Each write is one transaction.
 */
export function createCronStore(backend: StoreBackend): CronStore {
  const listeners = new Set<(change: CronJobChange) => void>();
  const notify = (change: CronJobChange) => {
    for (const listener of listeners) {
      try {
        listener(change);
      } catch {
        // A listener's failure is its own.
      }
    }
  };
  const database = () => backend.database;
  const batched = createWriteBatcher(backend);

  const setEnabled = async (idOrName: string, enabled: boolean, now: number): Promise<CronJob> => {
    const row = await run(`${enabled ? 'Enabling' : 'Disabling'} cron job ${idOrName}`, () =>
      backend.write(async (transaction) => {
        const current = await requireRow(transaction, idOrName);
        if ((Number(current.enabled) === 1) === enabled) return current;
        const changes: Partial<CronJobsTable> = {
          enabled: enabled ? 1 : 0,
          updated_at: Math.max(now, Number(current.updated_at) + 1),
          // Re-enabled: occurrences of the time it was off are not "missed".
          ...(enabled ? { scheduled_from: now } : { next_run_at: null }),
        };
        await transaction.updateTable('cron_jobs').set(changes).where('id', '=', current.id).execute();
        return { ...current, ...changes };
      }),
    );
    notify({ type: 'updated', jobId: row.id });
    return cronJobFromRow(row);
  };

  return {
    async create(input, options = {}) {
      const job = validateJobInput(input);
      const schedule = parseCronSchedule(job.cron, job.timezone);
      const now = options.now ?? Date.now();
      const id = job.id ?? randomUUID();
      const row: CronJobsTable = {
        id,
        name: job.name,
        description: job.description,
        schedule: schedule.expression,
        timezone: schedule.timezone,
        prompt: job.prompt,
        agent: job.agent ?? null,
        model: job.model ?? null,
        timeout_ms: job.timeoutMs,
        budget_usd: job.budgetUsd ?? null,
        enabled: job.enabled ? 1 : 0,
        overlap: job.overlap,
        catch_up: job.catchUp,
        created_at: now,
        updated_at: now,
        scheduled_from: now,
        last_scheduled_for: null,
        next_run_at: null,
      };
      await run(`Creating cron job ${job.name}`, () =>
        backend.write(async (transaction) => {
          const sameId = await transaction.selectFrom('cron_jobs').select('id').where('id', '=', id).executeTakeFirst();
          if (sameId !== undefined) {
            throw new CronError({
              reason: 'conflict',
              field: 'id',
              message: `A cron job with id ${JSON.stringify(id)} exists already: pick another id, or leave it out for a new one.`,
            });
          }
          const sameName = await transaction
            .selectFrom('cron_jobs')
            .select('id')
            .where('name', '=', job.name)
            .executeTakeFirst();
          if (sameName !== undefined) throw nameTaken(job.name);
          await transaction.insertInto('cron_jobs').values(row).execute();
        }),
      );
      notify({ type: 'created', jobId: id });
      return cronJobFromRow(row);
    },

    async update(idOrName, changes, options = {}) {
      const valid = validateJobChanges(changes);
      const now = options.now ?? Date.now();
      const row = await run(`Updating cron job ${idOrName}`, () =>
        backend.write(async (transaction) => {
          const current = await requireRow(transaction, idOrName);
          const cron = valid.cron ?? current.schedule;
          const timezone = valid.timezone ?? current.timezone;
          const schedule = parseCronSchedule(cron, timezone);
          const rescheduled = schedule.expression !== current.schedule || schedule.timezone !== current.timezone;
          if (valid.name !== undefined && valid.name !== current.name) {
            const sameName = await transaction
              .selectFrom('cron_jobs')
              .select('id')
              .where('name', '=', valid.name)
              .executeTakeFirst();
            if (sameName !== undefined) throw nameTaken(valid.name);
          }
          const enabling = valid.enabled === true && Number(current.enabled) === 0;
          const set: Partial<CronJobsTable> = {
            ...(valid.name === undefined ? {} : { name: valid.name }),
            ...(valid.description === undefined ? {} : { description: valid.description }),
            schedule: schedule.expression,
            timezone: schedule.timezone,
            ...(valid.prompt === undefined ? {} : { prompt: valid.prompt }),
            ...(valid.agent === undefined ? {} : { agent: valid.agent }),
            ...(valid.model === undefined ? {} : { model: valid.model }),
            ...(valid.timeoutMs === undefined ? {} : { timeout_ms: valid.timeoutMs }),
            ...(valid.budgetUsd === undefined ? {} : { budget_usd: valid.budgetUsd }),
            ...(valid.enabled === undefined ? {} : { enabled: valid.enabled ? 1 : 0 }),
            ...(valid.overlap === undefined ? {} : { overlap: valid.overlap }),
            ...(valid.catchUp === undefined ? {} : { catch_up: valid.catchUp }),
            updated_at: Math.max(now, Number(current.updated_at) + 1),
            // A new schedule starts afresh: nothing before the change counts as missed.
            ...(rescheduled ? { scheduled_from: now, last_scheduled_for: null, next_run_at: null } : {}),
            ...(enabling ? { scheduled_from: now } : {}),
          };
          await transaction.updateTable('cron_jobs').set(set).where('id', '=', current.id).execute();
          return { ...current, ...set };
        }),
      );
      notify({ type: 'updated', jobId: row.id });
      return cronJobFromRow(row);
    },

    enable: (idOrName, options = {}) => setEnabled(idOrName, true, options.now ?? Date.now()),
    disable: (idOrName, options = {}) => setEnabled(idOrName, false, options.now ?? Date.now()),

    async delete(idOrName) {
      const id = await run(`Deleting cron job ${idOrName}`, () =>
        backend.write(async (transaction) => {
          const current = await requireRow(transaction, idOrName);
          await transaction.deleteFrom('cron_runs').where('job_id', '=', current.id).execute();
          await transaction.deleteFrom('cron_jobs').where('id', '=', current.id).execute();
          return current.id;
        }),
      );
      notify({ type: 'deleted', jobId: id });
    },

    async get(idOrName) {
      const row = await run(`Reading cron job ${idOrName}`, () => findRow(database(), idOrName));
      return row === undefined ? undefined : cronJobFromRow(row);
    },

    async list(options = {}) {
      const rows = await run('Listing cron jobs', () =>
        database()
          .selectFrom('cron_jobs')
          .selectAll()
          .$if(options.enabled !== undefined, (query) => query.where('enabled', '=', options.enabled ? 1 : 0))
          .orderBy('name')
          .execute(),
      );
      return rows.map(cronJobFromRow);
    },

    async nextRuns(idOrSpec, count = 5, options = {}) {
      previewCount(count);
      let cron: string;
      let timezone: string;
      if (typeof idOrSpec === 'string') {
        const row = await run(`Reading cron job ${idOrSpec}`, () => requireRow(database(), idOrSpec));
        cron = row.schedule;
        timezone = row.timezone;
      } else {
        if (typeof idOrSpec !== 'object' || idOrSpec === null) {
          throw new CronError({
            reason: 'invalid-job',
            message: 'Preview a job by id or name, or a { cron, timezone }.',
          });
        }
        cron = idOrSpec.cron;
        timezone = idOrSpec.timezone ?? 'UTC';
      }
      const schedule = parseCronSchedule(cron, timezone);
      const after = options.after ?? Date.now();
      return schedule.nextRuns(count, after).map(
        (at): CronOccurrence => ({
          at,
          iso: new Date(at).toISOString(),
          local: formatInTimezone(at, schedule.timezone),
        }),
      );
    },

    async runs(idOrName, options = {}) {
      const limit = options.limit ?? 50;
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
        throw new CronError({ reason: 'invalid-job', field: 'limit', message: 'A log page holds 1 to 1000 entries.' });
      }
      const rows = await run(`Reading the log of cron job ${idOrName}`, async () => {
        const job = await requireRow(database(), idOrName);
        return database()
          .selectFrom('cron_runs')
          .selectAll()
          .where('job_id', '=', job.id)
          .$if(options.before !== undefined, (query) => query.where('scheduled_for', '<', options.before as number))
          .orderBy('scheduled_for', 'desc')
          .limit(limit)
          .execute();
      });
      return rows.map(cronRunFromRow);
    },

    async run(entryId) {
      const row = await run(`Reading cron log entry ${entryId}`, () =>
        database().selectFrom('cron_runs').selectAll().where('id', '=', entryId).executeTakeFirst(),
      );
      return row === undefined ? undefined : cronRunFromRow(row);
    },

    async claim(jobId, scheduledFor, entry) {
      const row: CronRunsTable = {
        id: randomUUID(),
        job_id: jobId,
        scheduled_for: scheduledFor,
        trigger: entry.trigger,
        status: entry.status,
        started_at: entry.startedAt ?? null,
        finished_at: entry.status === 'skipped' ? (entry.startedAt ?? scheduledFor) : null,
        outcome: null,
        error: entry.error ?? null,
        cost_usd: null,
        session_id: null,
        run_id: null,
      };
      const inserted = await run(`Logging an occurrence of cron job ${jobId}`, () =>
        batched(async (transaction) => {
          await requireRow(transaction, jobId);
          const result = await transaction
            .insertInto('cron_runs')
            .values(row)
            .onConflict((conflict) => conflict.columns(['job_id', 'scheduled_for']).doNothing())
            .returning('id')
            .executeTakeFirst();
          return result !== undefined;
        }),
      );
      return inserted ? cronRunFromRow(row) : undefined;
    },

    async updateRun(entryId, changes) {
      const set: Partial<CronRunsTable> = {
        ...(changes.status === undefined ? {} : { status: changes.status }),
        ...(changes.startedAt === undefined ? {} : { started_at: changes.startedAt }),
        ...(changes.finishedAt === undefined ? {} : { finished_at: changes.finishedAt }),
        ...(changes.outcome === undefined ? {} : { outcome: changes.outcome }),
        ...(changes.error === undefined ? {} : { error: changes.error.slice(0, 4000) }),
        ...(changes.costUsd === undefined ? {} : { cost_usd: changes.costUsd }),
        ...(changes.sessionId === undefined ? {} : { session_id: changes.sessionId }),
        ...(changes.runId === undefined ? {} : { run_id: changes.runId }),
      };
      const row = await run(`Updating cron log entry ${entryId}`, () =>
        batched(async (transaction) => {
          if (Object.keys(set).length > 0)
            await transaction.updateTable('cron_runs').set(set).where('id', '=', entryId).execute();
          const updated = await transaction
            .selectFrom('cron_runs')
            .selectAll()
            .where('id', '=', entryId)
            .executeTakeFirst();
          if (updated === undefined) {
            throw new CronError({
              reason: 'not-found',
              message: `There is no cron log entry ${JSON.stringify(entryId)}.`,
            });
          }
          return updated;
        }),
      );
      return cronRunFromRow(row);
    },

    async markScheduled(jobId, marks) {
      await run(`Recording the schedule of cron job ${jobId}`, () =>
        batched(async (transaction) => {
          const set: Partial<CronJobsTable> = {};
          if (marks.nextRunAt !== undefined) set.next_run_at = marks.nextRunAt;
          if (Object.keys(set).length > 0)
            await transaction.updateTable('cron_jobs').set(set).where('id', '=', jobId).execute();
          if (marks.lastScheduledFor !== undefined) {
            const last = marks.lastScheduledFor;
            await transaction
              .updateTable('cron_jobs')
              .set({ last_scheduled_for: last })
              .where('id', '=', jobId)
              .where((where) =>
                where.or([where('last_scheduled_for', 'is', null), where('last_scheduled_for', '<', last)]),
              )
              .execute();
          }
        }),
      );
    },

    async liveRuns(jobId) {
      const rows = await run('Reading live cron runs', () =>
        database()
          .selectFrom('cron_runs')
          .selectAll()
          .where('status', 'in', ['queued', 'running'])
          .$if(jobId !== undefined, (query) => query.where('job_id', '=', jobId as string))
          .orderBy('scheduled_for')
          .execute(),
      );
      return rows.map(cronRunFromRow);
    },

    async changeStamp() {
      const row = await run('Reading the cron change stamp', async () => {
        const result = await sql<{ jobs: number | string; latest: number | string | null; total: string | null }>`
          SELECT COUNT(*) AS jobs, MAX(updated_at) AS latest, CAST(SUM(updated_at) AS TEXT) AS total FROM cron_jobs`.execute(
          database(),
        );
        return result.rows[0];
      });
      return `${Number(row?.jobs ?? 0)}:${row?.latest ?? ''}:${row?.total ?? ''}`;
    },

    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
