import { openStore, type WorkspaceStore } from '@boxagnts/workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../test/manual-clock.js';
import { createTestDatabase, postgresUnavailable } from '../test/postgres-test-db.js';
import { ScriptedRunHost } from '../test/scripted-run-host.js';
import { CronScheduler } from './cron-scheduler.js';

const unavailable = await postgresUnavailable();
if (unavailable !== undefined) console.warn(`cron scheduler PostgreSQL tests skipped: ${unavailable}.`);

const iso = (at: number) => new Date(at).toISOString();

// Skipped, with the reason printed above, where no PostgreSQL server answers.
describe.skipIf(unavailable !== undefined)('CronScheduler on a PostgreSQL store', () => {
  let database: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    database = await createTestDatabase('boxagnts_cron');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('three schedulers on three connections claim each occurrence once; run-once catches up once after downtime', async () => {
    const stores: WorkspaceStore[] = [];
    for (let index = 0; index < 3; index += 1) stores.push(await openStore({ kind: 'postgres', url: database.url }));
    const clock = new ManualClock('2026-05-01T11:59:30Z');
    const hosts = stores.map(() => new ScriptedRunHost(clock));
    for (const host of hosts) host.autoEnd = 'end_turn';
    const schedulers = stores.map(
      (store, index) =>
        new CronScheduler({
          store: store.cron,
          runs: hosts[index] as ScriptedRunHost,
          clock,
          syncIntervalMs: 86_400_000,
        }),
    );
    const settle = async () => {
      for (const scheduler of schedulers) await scheduler.idle();
    };
    try {
      const [first] = stores as [WorkspaceStore];
      const jobs = [];
      for (const name of ['a', 'b', 'c', 'd'])
        jobs.push(
          await first.cron.create({ name, cron: '* * * * *', prompt: 'p', overlap: 'allow' }, { now: clock.now() }),
        );
      const daily = await first.cron.create(
        { name: 'daily', cron: '0 9 * * *', prompt: 'p', catchUp: 'run-once' },
        { now: clock.now() },
      );
      for (const scheduler of schedulers) await scheduler.start();
      await clock.advanceTo('2026-05-01T12:05:05Z', settle);
      const started = hosts.flatMap((host) =>
        host.runs.map((run) => `${run.request.origin.jobId} ${iso(run.request.origin.scheduledFor)}`),
      );
      // 12:00 to 12:05 for each minute job: six occurrences, each started by exactly one scheduler.
      expect(started.length).toBe(jobs.length * 6);
      expect(new Set(started).size).toBe(started.length);
      for (const job of jobs)
        expect((await first.cron.runs(job.id)).every((entry) => entry.status === 'success')).toBe(true);

      // All three down over two mornings; on restart, the daily job runs once, for the latest.
      for (const scheduler of schedulers) await scheduler.stop();
      clock.jumpTo('2026-05-03T12:00:00Z');
      await Promise.all(schedulers.map((scheduler) => scheduler.start()));
      await settle();
      const caughtUp = hosts.flatMap((host) => host.runs.filter((run) => run.request.origin.jobId === daily.id));
      expect(caughtUp.map((run) => iso(run.request.origin.scheduledFor))).toEqual(['2026-05-03T09:00:00.000Z']);
      expect((await first.cron.runs(daily.id)).map((entry) => entry.trigger)).toEqual(['catch-up']);
    } finally {
      for (const scheduler of schedulers) await scheduler.stop();
      for (const store of stores) await store.close();
    }
  });
});
