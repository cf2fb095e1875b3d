import type { CronJob, CronRunEntry } from '@boxagnts/workspace';
import { afterEach, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../gateway.js';
import { ManualClock } from '../test/manual-clock.js';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The mock: a prompt with STALL hangs (a run that needs its timeout), every other one answers. */
const SCRIPT = {
  rules: [{ match: { contains: 'STALL' }, steps: [{ fault: { kind: 'stall' as const } }], repeatLast: true }],
  steps: [{ text: 'The report is written.', usage: { input: 1200, output: 300 } }],
  repeatLast: true,
};

interface Setup {
  test: TestWorkspace;
  gateway: Gateway;
  clock: ManualClock;
  request(path: string, init?: { method?: string; body?: unknown; token?: string }): Promise<Response>;
  settle(): Promise<void>;
}

async function setup(start: string, options: { token?: boolean } = {}): Promise<Setup> {
  const test = await createTestWorkspace(SCRIPT);
  const clock = new ManualClock(start);
  const gateway = await createGateway({
    workspace: test.workspace,
    cron: { clock, syncIntervalMs: 86_400_000 },
    ...(options.token === true ? { security: { requireToken: true } } : {}),
  });
  cleanups.push(async () => {
    await gateway.close();
    await test.close();
  });
  const setupValue: Setup = {
    test,
    gateway,
    clock,
    request: async (path, init = {}) =>
      await gateway.app.request(path, {
        method: init.method ?? 'GET',
        headers: {
          host: '127.0.0.1',
          'content-type': 'application/json',
          ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` }),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      }),
    settle: async () => {
      await gateway.cron?.idle();
    },
  };
  return setupValue;
}

/** Waits (real time) until the job's newest log entry is final. */
async function finalEntry(s: Setup, jobId: string): Promise<CronRunEntry> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    await s.settle();
    const [entry] = await s.test.workspace.store.cron.runs(jobId);
    if (entry !== undefined && entry.status !== 'running' && entry.status !== 'queued') return entry;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the cron run did not end');
}

describe('cron in the gateway', () => {
  it('a job created over HTTP fires as a full run in a fresh session, logged with outcome, cost and session', async () => {
    const s = await setup('2026-05-01T08:59:00Z');
    const created = await s.request('/cron/jobs', {
      method: 'POST',
      body: { name: 'daily report', cron: '0 9 * * *', timezone: 'Europe/Berlin', prompt: 'Write the daily report.' },
    });
    expect(created.status).toBe(201);
    const job = (await created.json()) as CronJob & { nextRunAt: number };
    expect(job.nextRunAt).toBe(Date.parse('2026-05-02T07:00:00Z'));
    await s.clock.advanceTo('2026-05-02T07:00:00Z', s.settle);
    const entry = await finalEntry(s, job.id);
    expect(entry).toMatchObject({
      status: 'success',
      outcome: 'end_turn',
      trigger: 'schedule',
      scheduledFor: Date.parse('2026-05-02T07:00:00Z'),
      sessionId: `cron-${job.id}-20260502T070000Z`,
    });
    expect(entry.costUsd).toBeGreaterThan(0);
    // The run is an ordinary run: in the run log with its origin, and its session holds the whole turn.
    const run = await s.gateway.runs.get(entry.runId as string);
    expect(run).toMatchObject({
      origin: { kind: 'cron', jobId: job.id, scheduledFor: entry.scheduledFor },
      dedupeKey: `cron:${job.id}:2026-05-02T07:00:00.000Z`,
      status: 'completed',
      reason: 'end_turn',
    });
    const session = (await (await s.request(`/sessions/${entry.sessionId}`)).json()) as {
      messages: { message: { role: string; content: unknown } }[];
    };
    expect(session.messages.map((message) => message.message.role)).toEqual(['user', 'assistant']);
    expect(JSON.stringify(session.messages[1]?.message.content)).toContain('The report is written.');
    const log = (await (await s.request(`/cron/jobs/${job.id}/runs`)).json()) as { runs: CronRunEntry[] };
    expect(log.runs.map((row) => row.id)).toEqual([entry.id]);
  });

  it('the timeout cancels a run that hangs, and the log says so', async () => {
    const s = await setup('2026-05-01T08:59:00Z');
    const job = await s.test.workspace.store.cron.create(
      { name: 'hang', cron: '*/5 * * * *', prompt: 'STALL please', timeoutMs: 1000 },
      { now: s.clock.now() },
    );
    await s.clock.advanceTo('2026-05-01T09:00:00Z', s.settle);
    const entry = await finalEntry(s, job.id);
    expect(entry.status).toBe('failed');
    expect(entry.outcome).not.toBe('end_turn');
    expect(entry.error).toMatch(/timeout/i);
    const run = await s.gateway.runs.get(entry.runId as string);
    expect(run.status).not.toBe('running');
  });

  it('answers bad jobs with the gateway error shape naming the field; 404 and 409 as for sessions', async () => {
    const s = await setup('2026-05-01T08:59:00Z');
    const bad = await s.request('/cron/jobs', { method: 'POST', body: { name: 'x', cron: '0 9 * *', prompt: 'p' } });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { reason: string; message: string; issues: { path: string }[] } };
    expect(body.error.reason).toBe('invalid-request');
    expect(body.error.message).toContain('has 4 fields');
    expect(body.error.issues[0]?.path).toBe('cron');
    const zone = await s.request('/cron/jobs', {
      method: 'POST',
      body: { name: 'x', cron: '0 9 * * *', timezone: 'Moon/Base', prompt: 'p' },
    });
    expect(((await zone.json()) as { error: { issues: { path: string }[] } }).error.issues[0]?.path).toBe('timezone');
    expect(
      (await s.request('/cron/jobs', { method: 'POST', body: { name: 'x', cron: '0 9 * * *', prompt: 'p' } })).status,
    ).toBe(201);
    expect(
      (await s.request('/cron/jobs', { method: 'POST', body: { name: 'x', cron: '0 9 * * *', prompt: 'p' } })).status,
    ).toBe(409);
    expect((await s.request('/cron/jobs/nope')).status).toBe(404);
    expect((await s.request('/cron/jobs/nope/runs')).status).toBe(404);
    expect((await s.request('/cron/jobs/x/next-runs?count=0')).status).toBe(400);
    const notJson = await s.gateway.app.request('/cron/jobs', {
      method: 'POST',
      headers: { host: '127.0.0.1', 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(notJson.status).toBe(400);
  });

  it('updates, disables, enables, previews, runs now and deletes over HTTP', async () => {
    const s = await setup('2026-03-28T12:00:00Z');
    const job = (await (
      await s.request('/cron/jobs', { method: 'POST', body: { name: 'b', cron: '30 2 * * *', prompt: 'p' } })
    ).json()) as CronJob;
    const moved = (await (
      await s.request(`/cron/jobs/${job.id}`, {
        method: 'PATCH',
        body: { timezone: 'Europe/Berlin', overlap: 'allow' },
      })
    ).json()) as CronJob & { nextRunAt: number };
    expect(moved).toMatchObject({
      timezone: 'Europe/Berlin',
      overlap: 'allow',
      nextRunAt: Date.parse('2026-03-29T01:00:00Z'),
    });
    const preview = (await (await s.request(`/cron/jobs/b/next-runs?count=2`)).json()) as {
      timezone: string;
      runs: { local: string }[];
    };
    expect(preview).toEqual({
      timezone: 'Europe/Berlin',
      runs: [
        expect.objectContaining({ local: '2026-03-29T03:00:00+02:00' }),
        expect.objectContaining({ local: '2026-03-30T02:30:00+02:00' }),
      ],
    });
    const spec = (await (
      await s.request('/cron/next-runs', {
        method: 'POST',
        body: { cron: '0 0 9 * * *', timezone: 'America/New_York', count: 1, after: '2026-03-07T00:00:00Z' },
      })
    ).json()) as { runs: { local: string }[] };
    expect(spec.runs.map((run) => run.local)).toEqual(['2026-03-07T09:00:00-05:00']);
    const off = (await (await s.request(`/cron/jobs/${job.id}/disable`, { method: 'POST' })).json()) as CronJob;
    expect(off.enabled).toBe(false);
    await s.settle();
    expect(s.gateway.cron?.size).toBe(0);
    expect(
      ((await (await s.request(`/cron/jobs/${job.id}/enable`, { method: 'POST' })).json()) as CronJob).enabled,
    ).toBe(true);
    await s.settle();
    expect(s.gateway.cron?.size).toBe(1);
    const now = await s.request(`/cron/jobs/${job.id}/run`, { method: 'POST' });
    expect(now.status).toBe(202);
    const started = (await now.json()) as CronRunEntry;
    expect(started).toMatchObject({ trigger: 'manual', status: 'running' });
    expect((await finalEntry(s, job.id)).status).toBe('success');
    const list = (await (await s.request('/cron/jobs')).json()) as { jobs: CronJob[] };
    expect(list.jobs.map((listed) => listed.name)).toEqual(['b']);
    expect((await s.request(`/cron/jobs/${job.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await s.request(`/cron/jobs/${job.id}`)).status).toBe(404);
  });

  it('keeps the cron routes behind the same auth guard', async () => {
    const s = await setup('2026-05-01T08:59:00Z', { token: true }).catch((error: unknown) => error);
    // A gateway that requires a token and has none refuses to start; give it one first.
    expect(s).toBeInstanceOf(Error);
    const test = await createTestWorkspace(SCRIPT);
    const first = await createGateway({ workspace: test.workspace, host: '127.0.0.1', recover: false, cron: false });
    const token = first.tokens.create('ci');
    await first.close();
    const gateway = await createGateway({ workspace: test.workspace, security: { requireToken: true }, cron: false });
    cleanups.push(async () => {
      await gateway.close();
      await test.close();
    });
    const ask = (headers: Record<string, string>) =>
      gateway.app.request('/cron/jobs', { headers: { host: '127.0.0.1', ...headers } });
    expect((await ask({})).status).toBe(401);
    expect((await ask({ authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await ask({ authorization: `Bearer ${token}` })).status).toBe(200);
    // With the scheduler off, "run now" says why it cannot.
    const job = await test.workspace.store.cron.create({ name: 'a', cron: '0 9 * * *', prompt: 'p' });
    const refused = await gateway.app.request(`/cron/jobs/${job.id}/run`, {
      method: 'POST',
      headers: { host: '127.0.0.1', authorization: `Bearer ${token}` },
    });
    expect(refused.status).toBe(409);
  });

  it('reloads the jobs from the store on restart', async () => {
    const s = await setup('2026-05-01T08:59:00Z');
    await s.request('/cron/jobs', { method: 'POST', body: { name: 'a', cron: '0 9 * * *', prompt: 'p' } });
    await s.request('/cron/jobs', {
      method: 'POST',
      body: { name: 'b', cron: '0 10 * * *', prompt: 'p', enabled: false },
    });
    await s.gateway.close();
    const again = await createGateway({ workspace: s.test.workspace, cron: { clock: s.clock } });
    cleanups.push(() => again.close());
    expect(again.cron?.size).toBe(1);
    await s.clock.advanceTo('2026-05-01T09:00:00Z', () => again.cron?.idle() ?? Promise.resolve());
    const [job] = await s.test.workspace.store.cron.list({ enabled: true });
    expect((await s.test.workspace.store.cron.runs(job?.id as string)).length).toBe(1);
  });
});
