import { type CronJob, isCronError, isStoreError } from '@boxagnts/workspace';
import { Hono } from 'hono';
import { z } from 'zod';
import type { CronScheduler } from '../cron/cron-scheduler.js';
import { ScheduleCache } from '../cron/schedule-cache.js';
import { GatewayError } from '../gateway-error.js';
import type {
  CronJobJson,
  CronJobListJson,
  CronNextRunsJson,
  CronRunEntryJson,
  CronRunListJson,
} from './api-types/index.js';
import type { GatewayEnv, GatewayServices } from './gateway-env.js';
import { parseWith, readJsonBody } from './read-body.js';
import { gatewayErrorOfStoreError } from './store-call.js';

const countQuerySchema = z.strictObject({
  count: z.coerce.number().int().min(1).max(1000).optional(),
  after: z.iso.datetime({ offset: true }).optional(),
});
const logQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  before: z.coerce.number().int().min(0).optional(),
});
const previewSchema = z.strictObject({
  cron: z.string().max(200),
  timezone: z.string().max(100).optional(),
  count: z.number().int().min(1).max(1000).optional(),
  after: z.iso.datetime({ offset: true }).optional(),
});
const anyObject = z.record(z.string(), z.unknown());

/** Turns the cron store's refusals into the gateway's error shape (field in `issues`). */
async function cronCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isCronError(error)) {
      const reason =
        error.reason === 'not-found' ? 'not-found' : error.reason === 'conflict' ? 'conflict' : 'invalid-request';
      throw new GatewayError({
        reason,
        message: error.message,
        issues: error.field === undefined ? [] : [{ path: error.field, message: error.message }],
        cause: error,
      });
    }
    if (isStoreError(error)) throw gatewayErrorOfStoreError(error);
    throw error;
  }
}

const schedules = new ScheduleCache();

/** A job as the API shows it: its row, with the next occurrence computed now (none when disabled). */
function withNextRun(job: CronJob, now: number): CronJobJson {
  const { nextRunAt: _stale, ...rest } = job;
  if (!job.enabled) return rest;
  const next = schedules.get(job.cron, job.timezone).next(now);
  return next === undefined ? rest : { ...rest, nextRunAt: next };
}

/**
 * Cron jobs over HTTP: list, create, get, update, enable, disable, delete, preview the next runs
 * (of a job or of an expression), read a job's run log, and run a job now. Changes take effect in
 * the gateway's scheduler at once.
 */
export function cronRoutes(services: GatewayServices, scheduler: CronScheduler | undefined): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const cron = () => services.workspace.store.cron;
  const now = () => scheduler?.now() ?? Date.now();
  const job = async (idOrName: string) => {
    const found = await cronCall(() => cron().get(idOrName));
    if (found === undefined) {
      throw new GatewayError({
        reason: 'not-found',
        message: `No cron job "${idOrName}": list them with GET /cron/jobs.`,
      });
    }
    return found;
  };

  app.get('/cron/jobs', async (context) => {
    const jobs = await cronCall(() => cron().list());
    const at = now();
    return context.json<CronJobListJson>({ jobs: jobs.map((entry) => withNextRun(entry, at)) });
  });
  app.post('/cron/jobs', async (context) => {
    const body = await readJsonBody(context, anyObject);
    const created = await cronCall(() => cron().create(body as never, { now: now() }));
    return context.json(withNextRun(created, now()), 201, { location: `/cron/jobs/${created.id}` });
  });
  app.post('/cron/next-runs', async (context) => {
    const body = await readJsonBody(context, previewSchema);
    const spec = { cron: body.cron, ...(body.timezone === undefined ? {} : { timezone: body.timezone }) };
    const after = body.after === undefined ? now() : Date.parse(body.after);
    return context.json<CronNextRunsJson>({
      runs: await cronCall(() => cron().nextRuns(spec, body.count ?? 5, { after })),
    });
  });
  app.get('/cron/jobs/:id', async (context) => context.json(withNextRun(await job(context.req.param('id')), now())));
  app.patch('/cron/jobs/:id', async (context) => {
    const body = await readJsonBody(context, anyObject);
    const current = await job(context.req.param('id'));
    const updated = await cronCall(() => cron().update(current.id, body as never, { now: now() }));
    return context.json(withNextRun(updated, now()));
  });
  app.post('/cron/jobs/:id/enable', async (context) => {
    const current = await job(context.req.param('id'));
    return context.json(withNextRun(await cronCall(() => cron().enable(current.id, { now: now() })), now()));
  });
  app.post('/cron/jobs/:id/disable', async (context) => {
    const current = await job(context.req.param('id'));
    return context.json(withNextRun(await cronCall(() => cron().disable(current.id, { now: now() })), now()));
  });
  app.delete('/cron/jobs/:id', async (context) => {
    const current = await job(context.req.param('id'));
    await cronCall(() => cron().delete(current.id));
    return context.body(null, 204);
  });
  app.get('/cron/jobs/:id/next-runs', async (context) => {
    const query = parseWith(countQuerySchema, context.req.query(), 'query');
    const current = await job(context.req.param('id'));
    const after = query.after === undefined ? now() : Date.parse(query.after);
    return context.json<CronNextRunsJson>({
      timezone: current.timezone,
      runs: await cronCall(() => cron().nextRuns(current.id, query.count ?? 5, { after })),
    });
  });
  app.get('/cron/jobs/:id/runs', async (context) => {
    const query = parseWith(logQuerySchema, context.req.query(), 'query');
    const current = await job(context.req.param('id'));
    const options = {
      ...(query.limit === undefined ? {} : { limit: query.limit }),
      ...(query.before === undefined ? {} : { before: query.before }),
    };
    return context.json<CronRunListJson>({ runs: await cronCall(() => cron().runs(current.id, options)) });
  });
  app.post('/cron/jobs/:id/run', async (context) => {
    const current = await job(context.req.param('id'));
    if (scheduler === undefined) {
      throw new GatewayError({
        reason: 'conflict',
        message: 'The cron scheduler of this gateway is off (cron: false): start the gateway with it to run jobs.',
      });
    }
    const entry = await cronCall(() => scheduler.runNow(current.id));
    return context.json<CronRunEntryJson>(entry, 202);
  });
  return app;
}
