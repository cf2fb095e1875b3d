import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CronJobInput, openStore, type WorkspaceStore } from '@boxagnts/workspace';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../test/manual-clock.js';
import { ScriptedRunHost } from '../test/scripted-run-host.js';
import { CronScheduler, type CronSchedulerOptions } from './cron-scheduler.js';

const DAY = 86_400_000;

interface Harness {
  store: WorkspaceStore;
  path: string;
  clock: ManualClock;
  host: ScriptedRunHost;
  scheduler: CronScheduler;
  settle: () => Promise<void>;
  create(input: CronJobInput): ReturnType<WorkspaceStore['cron']['create']>;
  restart(options?: Partial<CronSchedulerOptions>): Promise<CronScheduler>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function harness(start: string, options: Partial<CronSchedulerOptions> = {}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-cron-'));
  const path = join(dir, 'workspace.db');
  const store = await openStore({ kind: 'sqlite', path }, { sqlite: { synchronous: 'normal' } });
  const clock = new ManualClock(start);
  const host = new ScriptedRunHost(clock);
  const make = (extra: Partial<CronSchedulerOptions> = {}) =>
    new CronScheduler({ store: store.cron, runs: host, clock, syncIntervalMs: 30 * DAY, ...options, ...extra });
  const h: Harness = {
    store,
    path,
    clock,
    host,
    scheduler: make(),
    settle: () => h.scheduler.idle(),
    create: (input) => store.cron.create(input, { now: clock.now() }),
    async restart(extra) {
      await h.scheduler.stop();
      h.scheduler = make(extra);
      await h.scheduler.start();
      return h.scheduler;
    },
  };
  cleanups.push(async () => {
    await h.scheduler.stop();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  return h;
}

const iso = (at: number | undefined) => (at === undefined ? undefined : new Date(at).toISOString());

/** The instants the runs of a job were started for. */
function firedFor(h: Harness, jobId: string): string[] {
  return h.host.runs
    .filter((run) => run.request.origin.jobId === jobId)
    .map((run) => iso(run.request.origin.scheduledFor) as string);
}

describe('CronScheduler', () => {
  it('starts each occurrence as a run in a fresh session with origin, dedupe key, timeout and budget, on time, and logs its start and end', async () => {
    const h = await harness('2026-03-27T00:00:00Z');
    const job = await h.create({
      name: 'report',
      cron: '0 9 * * *',
      timezone: 'Europe/Berlin',
      prompt: 'Write the report.',
      agent: 'build',
      model: 'anthropic/claude-sonnet-4-6',
      timeoutMs: 60_000,
      budgetUsd: 0.5,
    });
    await h.scheduler.start();
    await h.clock.advanceTo('2026-03-27T08:00:30Z', h.settle);
    h.host.end('run-1', 'end_turn', { costUsd: 0.0123 });
    await h.clock.advanceTo('2026-03-28T08:00:30Z', h.settle);
    h.host.end('run-2', 'max_turns', { costUsd: 0.2 });
    await h.clock.advanceTo('2026-03-29T07:00:30Z', h.settle);
    // 09:00 in Berlin: CET (+1) before 29 March, CEST (+2) from then.
    expect(firedFor(h, job.id)).toEqual([
      '2026-03-27T08:00:00.000Z',
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
    ]);
    const [first, second, third] = h.host.runs;
    expect(first?.request).toEqual({
      sessionId: `cron-${job.id}-20260327T080000Z`,
      input: [{ role: 'user', content: 'Write the report.' }],
      agent: 'build',
      model: 'anthropic/claude-sonnet-4-6',
      budgetUsd: 0.5,
      origin: { kind: 'cron', jobId: job.id, scheduledFor: Date.parse('2026-03-27T08:00:00Z') },
      dedupeKey: `cron:${job.id}:2026-03-27T08:00:00.000Z`,
      timeoutMs: 60_000,
    });
    expect(new Set(h.host.runs.map((run) => run.request.sessionId)).size).toBe(3);
    // With a manual clock every fire is exactly on time.
    for (const run of h.host.runs) expect(run.startedAt).toBe(run.request.origin.scheduledFor);
    expect([first?.record.id, second?.record.id]).toEqual(['run-1', 'run-2']);
    const log = await h.store.cron.runs(job.id);
    expect(log.map((entry) => [iso(entry.scheduledFor), entry.status, entry.outcome, entry.costUsd])).toEqual([
      ['2026-03-29T07:00:00.000Z', 'running', undefined, undefined],
      ['2026-03-28T08:00:00.000Z', 'failed', 'max_turns', 0.2],
      ['2026-03-27T08:00:00.000Z', 'success', 'end_turn', 0.0123],
    ]);
    expect(log[2]).toMatchObject({
      trigger: 'schedule',
      runId: first?.record.id,
      sessionId: first?.request.sessionId,
      startedAt: Date.parse('2026-03-27T08:00:00Z'),
    });
    expect(log[1]?.error).toContain('max_turns');
    expect(log[0]).toMatchObject({ runId: third?.record.id, startedAt: Date.parse('2026-03-29T07:00:00Z') });
    expect((await h.store.cron.get(job.id))?.lastScheduledFor).toBe(Date.parse('2026-03-29T07:00:00Z'));
  });

  describe('DST', () => {
    async function dstJobs(h: Harness, zone: string) {
      h.host.autoEnd = 'end_turn';
      return {
        fixed: await h.create({ name: `${zone} fixed`, cron: '30 2 * * *', timezone: zone, prompt: 'p' }),
        early: await h.create({ name: `${zone} early`, cron: '30 1 * * *', timezone: zone, prompt: 'p' }),
        hourly: await h.create({ name: `${zone} hourly`, cron: '0 * * * *', timezone: zone, prompt: 'p' }),
        half: await h.create({ name: `${zone} half`, cron: '*/30 * * * *', timezone: zone, prompt: 'p' }),
      };
    }

    /** The gaps between consecutive instants, in minutes. */
    const gaps = (instants: string[]) =>
      instants.slice(1).map((at, index) => (Date.parse(at) - Date.parse(instants[index] as string)) / 60_000);

    it('Europe/Berlin spring forward: 02:30 runs once right after the gap, the 23-hour day has 23 hourly runs', async () => {
      const h = await harness('2026-03-28T12:00:00Z');
      const jobs = await dstJobs(h, 'Europe/Berlin');
      await h.scheduler.start();
      await h.clock.advanceTo('2026-03-30T12:00:00Z', h.settle);
      expect(firedFor(h, jobs.fixed.id)).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
      expect(firedFor(h, jobs.early.id)).toEqual(['2026-03-29T00:30:00.000Z', '2026-03-29T23:30:00.000Z']);
      // Local 29 March: 2026-03-28T23:00Z (00:00 CET) to 2026-03-29T22:00Z (00:00 CEST).
      const hourly = firedFor(h, jobs.hourly.id).filter(
        (at) => at >= '2026-03-28T23:00:00.000Z' && at < '2026-03-29T22:00:00.000Z',
      );
      expect(hourly.length).toBe(23);
      expect(new Set(gaps(firedFor(h, jobs.hourly.id)))).toEqual(new Set([60]));
      expect(new Set(gaps(firedFor(h, jobs.half.id)))).toEqual(new Set([30]));
      expect(h.host.runs.every((run) => run.startedAt === run.request.origin.scheduledFor)).toBe(true);
    });

    it('Europe/Berlin fall back: 02:30 runs once (the first time), the 25-hour day has 25 hourly runs', async () => {
      const h = await harness('2026-10-24T12:00:00Z');
      const jobs = await dstJobs(h, 'Europe/Berlin');
      await h.scheduler.start();
      await h.clock.advanceTo('2026-10-26T12:00:00Z', h.settle);
      expect(firedFor(h, jobs.fixed.id)).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
      expect(firedFor(h, jobs.early.id)).toEqual(['2026-10-24T23:30:00.000Z', '2026-10-26T00:30:00.000Z']);
      // Local 25 October: 2026-10-24T22:00Z (00:00 CEST) to 2026-10-25T23:00Z (00:00 CET).
      const hourly = firedFor(h, jobs.hourly.id).filter(
        (at) => at >= '2026-10-24T22:00:00.000Z' && at < '2026-10-25T23:00:00.000Z',
      );
      expect(hourly.length).toBe(25);
      expect(new Set(gaps(firedFor(h, jobs.hourly.id)))).toEqual(new Set([60]));
      expect(new Set(gaps(firedFor(h, jobs.half.id)))).toEqual(new Set([30]));
    });

    it('America/New_York: 02:30 on 8 March runs at 03:00 EDT; 01:30 on 1 November runs once', async () => {
      const h = await harness('2026-03-07T12:00:00Z');
      const jobs = await dstJobs(h, 'America/New_York');
      await h.scheduler.start();
      await h.clock.advanceTo('2026-03-09T12:00:00Z', h.settle);
      expect(firedFor(h, jobs.fixed.id)).toEqual(['2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z']);
      expect(firedFor(h, jobs.hourly.id).filter((at) => at.startsWith('2026-03-08')).length).toBe(24);
      expect(new Set(gaps(firedFor(h, jobs.hourly.id)))).toEqual(new Set([60]));
      h.clock.jumpTo('2026-10-31T12:00:00Z');
      await h.restart();
      await h.clock.advanceTo('2026-11-02T12:00:00Z', h.settle);
      const november = (id: string) => firedFor(h, id).filter((at) => at >= '2026-10-31');
      // 01:30 happens twice (EDT, then EST): once, the first time.
      expect(november(jobs.early.id)).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
      expect(new Set(gaps(november(jobs.hourly.id)))).toEqual(new Set([60]));
      expect(new Set(gaps(november(jobs.half.id)))).toEqual(new Set([30]));
    });
  });

  describe('overlap', () => {
    it('skip: an occurrence while the last run is live is logged as skipped, and the next one after it ends runs', async () => {
      const h = await harness('2026-05-01T12:00:30Z');
      const job = await h.create({ name: 'm', cron: '* * * * *', prompt: 'p' });
      await h.scheduler.start();
      await h.clock.advanceTo('2026-05-01T12:02:10Z', h.settle);
      expect(h.host.runs.length).toBe(1);
      h.host.end('run-1', 'end_turn');
      await h.clock.advanceTo('2026-05-01T12:03:10Z', h.settle);
      expect(firedFor(h, job.id)).toEqual(['2026-05-01T12:01:00.000Z', '2026-05-01T12:03:00.000Z']);
      const log = await h.store.cron.runs(job.id);
      expect(log.map((entry) => [iso(entry.scheduledFor), entry.status])).toEqual([
        ['2026-05-01T12:03:00.000Z', 'running'],
        ['2026-05-01T12:02:00.000Z', 'skipped'],
        ['2026-05-01T12:01:00.000Z', 'success'],
      ]);
      expect(log[1]?.error).toContain('was still running (overlap: skip)');
    });

    it('allow: runs of one job overlap', async () => {
      const h = await harness('2026-05-01T12:00:30Z');
      const job = await h.create({ name: 'm', cron: '* * * * *', prompt: 'p', overlap: 'allow' });
      await h.scheduler.start();
      await h.clock.advanceTo('2026-05-01T12:03:10Z', h.settle);
      expect(h.host.live().length).toBe(3);
      expect((await h.store.cron.liveRuns(job.id)).length).toBe(3);
    });

    it('queue: one occurrence waits and starts when the live run ends; a further one is skipped', async () => {
      const h = await harness('2026-05-01T12:00:30Z');
      const job = await h.create({ name: 'm', cron: '* * * * *', prompt: 'p', overlap: 'queue' });
      await h.scheduler.start();
      await h.clock.advanceTo('2026-05-01T12:03:10Z', h.settle);
      expect(h.host.runs.length).toBe(1);
      let log = await h.store.cron.runs(job.id);
      expect(log.map((entry) => entry.status)).toEqual(['skipped', 'queued', 'running']);
      await h.clock.advanceTo('2026-05-01T12:03:30Z', h.settle);
      h.host.end('run-1', 'end_turn');
      await h.settle();
      expect(firedFor(h, job.id)).toEqual(['2026-05-01T12:01:00.000Z', '2026-05-01T12:02:00.000Z']);
      expect(h.host.runs[1]?.startedAt).toBe(Date.parse('2026-05-01T12:03:30Z'));
      log = await h.store.cron.runs(job.id);
      expect(log.map((entry) => entry.status)).toEqual(['skipped', 'running', 'success']);
      expect(log[1]?.startedAt).toBe(Date.parse('2026-05-01T12:03:30Z'));
    });
  });

  describe('timeout', () => {
    it('a run that ignores cancellation is logged as abandoned after its timeout, never waited for; its late end is ignored', async () => {
      const h = await harness('2026-05-01T12:00:30Z', { abandonMarginMs: 5000 });
      h.host.ignoreCancel = true;
      const job = await h.create({ name: 'm', cron: '*/2 * * * *', prompt: 'p', timeoutMs: 30_000 });
      await h.scheduler.start();
      await h.clock.advanceTo('2026-05-01T12:02:34Z', h.settle);
      expect((await h.store.cron.runs(job.id))[0]?.status).toBe('running');
      await h.clock.advanceTo('2026-05-01T12:02:36Z', h.settle);
      const [entry] = await h.store.cron.runs(job.id);
      expect(entry).toMatchObject({
        status: 'failed',
        outcome: 'timeout',
        finishedAt: Date.parse('2026-05-01T12:02:35Z'),
      });
      expect(entry?.error).toContain('abandoned');
      // Abandoned, the job is free: the next occurrence runs although the old run never stopped.
      await h.clock.advanceTo('2026-05-01T12:04:10Z', h.settle);
      expect(firedFor(h, job.id)).toEqual(['2026-05-01T12:02:00.000Z', '2026-05-01T12:04:00.000Z']);
      h.host.end('run-1', 'end_turn');
      await h.settle();
      expect((await h.store.cron.run(entry?.id as string))?.status).toBe('failed');
    });

    it('a run the run manager ended at its timeout is logged failed with its reason', async () => {
      const h = await harness('2026-05-01T12:00:30Z');
      const job = await h.create({ name: 'm', cron: '*/2 * * * *', prompt: 'p', timeoutMs: 30_000 });
      await h.scheduler.start();
      await h.clock.advanceTo('2026-05-01T12:02:30Z', h.settle);
      h.host.end('run-1', 'timeout', { status: 'failed', error: 'The run reached its timeout of 30000 ms.' });
      await h.settle();
      expect((await h.store.cron.runs(job.id))[0]).toMatchObject({
        status: 'failed',
        outcome: 'timeout',
        error: 'The run reached its timeout of 30000 ms.',
      });
    });

    it('a run that cannot start is logged failed with the reason', async () => {
      const h = await harness('2026-05-01T12:00:30Z');
      const job = await h.create({ name: 'm', cron: '* * * * *', prompt: 'p', agent: 'nobody' });
      h.host.failStart = new Error('No agent "nobody": list the agents with GET /agents.');
      await h.scheduler.start();
      await h.clock.advanceTo('2026-05-01T12:01:10Z', h.settle);
      expect((await h.store.cron.runs(job.id))[0]).toMatchObject({ status: 'failed', outcome: 'error' });
      expect((await h.store.cron.runs(job.id))[0]?.error).toContain('No agent "nobody"');
    });
  });

  describe('catch-up after downtime', () => {
    async function downtime(catchUp: 'skip' | 'run-once') {
      const h = await harness('2026-06-01T08:00:00Z');
      const job = await h.create({ name: 'daily', cron: '0 9 * * *', prompt: 'p', catchUp });
      h.host.autoEnd = 'end_turn';
      await h.scheduler.start();
      await h.clock.advanceTo('2026-06-01T09:00:30Z', h.settle);
      await h.scheduler.stop();
      // Down for three days: the 9:00 runs of 2, 3 and 4 June are missed.
      h.clock.jumpTo('2026-06-04T15:00:00Z');
      await h.restart();
      return { h, job };
    }

    it('skip: nothing runs for the missed occurrences, and the schedule goes on', async () => {
      const { h, job } = await downtime('skip');
      expect(firedFor(h, job.id)).toEqual(['2026-06-01T09:00:00.000Z']);
      expect((await h.store.cron.get(job.id))?.lastScheduledFor).toBe(Date.parse('2026-06-04T09:00:00Z'));
      await h.clock.advanceTo('2026-06-05T09:00:01Z', h.settle);
      expect(firedFor(h, job.id)).toEqual(['2026-06-01T09:00:00.000Z', '2026-06-05T09:00:00.000Z']);
    });

    it('run-once: one run for all the missed occurrences, for the latest, and the schedule goes on', async () => {
      const { h, job } = await downtime('run-once');
      expect(firedFor(h, job.id)).toEqual(['2026-06-01T09:00:00.000Z', '2026-06-04T09:00:00.000Z']);
      expect(h.host.runs[1]?.startedAt).toBe(Date.parse('2026-06-04T15:00:00Z'));
      const log = await h.store.cron.runs(job.id);
      expect(log.map((entry) => [iso(entry.scheduledFor), entry.trigger, entry.status])).toEqual([
        ['2026-06-04T09:00:00.000Z', 'catch-up', 'success'],
        ['2026-06-01T09:00:00.000Z', 'schedule', 'success'],
      ]);
      // A second restart does not catch up again.
      await h.restart();
      expect(h.host.runs.length).toBe(2);
      await h.clock.advanceTo('2026-06-05T09:00:01Z', h.settle);
      expect(firedFor(h, job.id).at(-1)).toBe('2026-06-05T09:00:00.000Z');
    });

    it('a restart within the grace period runs the occurrence as scheduled, once', async () => {
      const h = await harness('2026-06-01T08:59:00Z');
      const job = await h.create({ name: 'daily', cron: '0 9 * * *', prompt: 'p' });
      await h.scheduler.start();
      await h.scheduler.stop();
      h.clock.jumpTo('2026-06-01T09:00:20Z');
      await h.restart();
      await h.restart();
      expect(h.host.runs.map((run) => [iso(run.request.origin.scheduledFor), run.startedAt])).toEqual([
        ['2026-06-01T09:00:00.000Z', Date.parse('2026-06-01T09:00:20Z')],
      ]);
      expect((await h.store.cron.runs(job.id))[0]?.trigger).toBe('schedule');
    });
  });

  describe('reloads', () => {
    it('loads jobs again on restart; changes through the store take effect at once', async () => {
      const h = await harness('2026-05-01T11:59:00Z');
      const a = await h.create({ name: 'a', cron: '0 12 * * *', prompt: 'p' });
      const b = await h.create({ name: 'b', cron: '0 12 * * *', prompt: 'p' });
      await h.create({ name: 'off', cron: '0 12 * * *', prompt: 'p', enabled: false });
      await h.scheduler.start();
      expect(h.scheduler.size).toBe(2);
      await h.restart();
      expect(h.scheduler.size).toBe(2);
      await h.store.cron.disable(a.id, { now: h.clock.now() });
      await h.store.cron.update(b.id, { cron: '30 12 * * *' }, { now: h.clock.now() });
      const c = await h.create({ name: 'c', cron: '15 12 * * *', prompt: 'p' });
      await h.settle();
      await h.clock.advanceTo('2026-05-01T12:40:00Z', h.settle);
      expect(h.host.runs.map((run) => [run.request.origin.jobId, iso(run.request.origin.scheduledFor)])).toEqual([
        [c.id, '2026-05-01T12:15:00.000Z'],
        [b.id, '2026-05-01T12:30:00.000Z'],
      ]);
      await h.store.cron.delete(c.id);
      await h.settle();
      expect(h.scheduler.size).toBe(1);
    });

    it('picks up jobs another process changed at the next sync', async () => {
      const h = await harness('2026-05-01T11:00:00Z', { syncIntervalMs: 30_000 });
      await h.scheduler.start();
      const other = await openStore({ kind: 'sqlite', path: h.path });
      try {
        const job = await other.cron.create(
          { name: 'elsewhere', cron: '2 11 * * *', prompt: 'p' },
          { now: h.clock.now() },
        );
        await h.clock.advanceTo('2026-05-01T11:00:31Z', h.settle);
        expect(h.scheduler.size).toBe(1);
        await h.clock.advanceTo('2026-05-01T11:02:01Z', h.settle);
        expect(firedFor(h, job.id)).toEqual(['2026-05-01T11:02:00.000Z']);
      } finally {
        await other.close();
      }
    });

    it('settles runs a stopped scheduler left live: still running is followed to its end', async () => {
      const h = await harness('2026-05-01T11:59:30Z');
      const job = await h.create({ name: 'a', cron: '0 12 * * *', prompt: 'p' });
      await h.scheduler.start();
      await h.clock.advanceTo('2026-05-01T12:00:05Z', h.settle);
      await h.restart();
      h.host.end('run-1', 'end_turn', { costUsd: 0.5 });
      await h.settle();
      expect((await h.store.cron.runs(job.id))[0]).toMatchObject({ status: 'success', costUsd: 0.5 });
      expect(h.host.runs.length).toBe(1);
    });
  });

  it('claims each occurrence once when two schedulers share one store', async () => {
    const h = await harness('2026-05-01T11:59:30Z');
    const second = await openStore({ kind: 'sqlite', path: h.path });
    const otherHost = new ScriptedRunHost(h.clock);
    const other = new CronScheduler({ store: second.cron, runs: otherHost, clock: h.clock, syncIntervalMs: 30 * DAY });
    cleanups.push(async () => {
      await other.stop();
      await second.close();
    });
    h.host.autoEnd = 'end_turn';
    otherHost.autoEnd = 'end_turn';
    const jobs = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((name) => h.create({ name, cron: '* * * * *', prompt: 'p', overlap: 'allow' })),
    );
    await h.scheduler.start();
    await other.start();
    await h.clock.advanceTo('2026-05-01T12:10:05Z', async () => {
      await h.settle();
      await other.idle();
    });
    const all = [...h.host.runs, ...otherHost.runs].map(
      (run) => `${run.request.origin.jobId} ${iso(run.request.origin.scheduledFor)}`,
    );
    // 12:00 to 12:10: eleven occurrences of each job, each started by exactly one of the two.
    expect(all.length).toBe(jobs.length * 11);
    expect(new Set(all).size).toBe(all.length);
  });

  it('keeps one timer for a thousand jobs and fires only those due', async () => {
    const h = await harness('2026-05-01T00:00:00Z');
    const raw = new BetterSqlite3(h.path);
    const now = h.clock.now();
    const insert = raw.prepare(
      `INSERT INTO cron_jobs (id, name, schedule, timezone, prompt, created_at, updated_at, scheduled_from)
       VALUES (?, ?, ?, 'UTC', 'p', ?, ?, ?)`,
    );
    raw.transaction(() => {
      for (let index = 0; index < 1000; index += 1)
        insert.run(`job-${index}`, `job ${index}`, `${index % 60} ${Math.floor(index / 60) % 24} * * *`, now, now, now);
    })();
    raw.close();
    h.host.autoEnd = 'end_turn';
    await h.scheduler.start();
    expect(h.scheduler.size).toBe(1000);
    // The scheduler's timer and its sync timer; nothing per job.
    expect(h.clock.pendingTimers).toBe(2);
    await h.clock.advanceTo('2026-05-01T00:00:30Z', h.settle);
    expect(h.host.runs.length).toBe(0);
    expect(h.scheduler.nextWakeAt).toBe(Date.parse('2026-05-01T00:01:00Z'));
    await h.clock.advanceTo('2026-05-01T00:02:00Z', h.settle);
    expect(h.host.runs.map((run) => run.request.origin.jobId).sort()).toEqual(['job-1', 'job-2']);
    expect(h.clock.pendingTimers).toBe(2);
  });
});
