import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateStore } from '../store/migrate.js';
import type { StoreContractTarget } from '../store/store-contract-fixtures.test-suite.js';
import type { WorkspaceStore } from '../store/store-types.js';
import { type CronError, isCronError } from './cron-error.js';

/** The CronError a call rejects with; fails the test when it succeeds or throws something else. */
async function cronRejection(promise: Promise<unknown>): Promise<CronError> {
  try {
    await promise;
  } catch (error) {
    if (isCronError(error)) return error;
    throw error;
  }
  throw new Error('expected a CronError, but the call succeeded');
}

const NOW = Date.parse('2026-03-28T12:00:00Z');

/** `store.cron` tests and the v4 -> v5 upgrade, run against every backend. */
export function defineCronContract(name: string, target: StoreContractTarget): void {
  describe(`cron store: ${name}`, () => {
    let store: WorkspaceStore;
    beforeEach(async () => {
      store = await target.openEmpty();
    });
    afterEach(async () => {
      await store.close();
    });

    it('creates a job with defaults and finds it by id and by name', async () => {
      const job = await store.cron.create(
        { name: 'daily report', cron: '0 9 * * *', prompt: 'Write it.' },
        { now: NOW },
      );
      expect(job).toMatchObject({
        name: 'daily report',
        cron: '0 9 * * *',
        timezone: 'UTC',
        prompt: 'Write it.',
        timeoutMs: 180_000,
        enabled: true,
        overlap: 'skip',
        catchUp: 'skip',
        createdAt: NOW,
        scheduledFrom: NOW,
      });
      expect(job.agent).toBeUndefined();
      expect(await store.cron.get(job.id)).toEqual(job);
      expect(await store.cron.get('daily report')).toEqual(job);
      expect(await store.cron.get('nobody')).toBeUndefined();
      expect((await store.cron.list()).map((listed) => listed.id)).toEqual([job.id]);
    });

    it("accepts BoxAgnts' own job object as it is: six fields seconds first, timeout in seconds, nulls", async () => {
      const boxagnts = {
        id: 'b4b2c1de-0000-4000-8000-000000000001',
        name: 'code quality',
        description: 'every morning at 9',
        cron: '0 0 9 * * *',
        prompt: 'Produce the code-quality report.',
        model: null,
        timeout: 300,
        enabled: true,
      };
      const job = await store.cron.create(boxagnts as never);
      expect(job).toMatchObject({
        id: boxagnts.id,
        description: 'every morning at 9',
        cron: '0 0 9 * * *',
        timeoutMs: 300_000,
        enabled: true,
      });
      expect(job.model).toBeUndefined();
      const runs = await store.cron.nextRuns(job.id, 2, { after: NOW });
      expect(runs.map((run) => run.iso)).toEqual(['2026-03-29T09:00:00.000Z', '2026-03-30T09:00:00.000Z']);
    });

    it('refuses bad jobs with a typed error naming the field, and stores nothing', async () => {
      const base = { name: 'x', cron: '0 9 * * *', prompt: 'p' };
      const cases: [Record<string, unknown>, string, string][] = [
        [{ ...base, cron: '0 9 * *' }, 'invalid-expression', 'has 4 fields'],
        [{ ...base, cron: '0 0 9 * * * 2030' }, 'invalid-expression', 'has 7 fields'],
        [{ ...base, cron: '61 9 * * *' }, 'invalid-expression', 'minute'],
        [{ ...base, cron: '' }, 'invalid-expression', 'is empty'],
        [{ ...base, cron: '0 0 30 2 *' }, 'never-fires', 'no future occurrence'],
        [{ ...base, timezone: 'Mars/Olympus' }, 'unknown-timezone', 'IANA zone name'],
        [{ ...base, timezone: '+02:00' }, 'unknown-timezone', 'IANA zone name'],
        [{ ...base, timezon: 'UTC' }, 'invalid-job', 'unknown field "timezon"'],
        [{ ...base, prompt: '' }, 'invalid-job', 'prompt'],
        [{ ...base, name: 'a\u0007b' }, 'invalid-job', 'control characters'],
        [{ ...base, timeoutMs: 5000, timeout: 6 }, 'invalid-job', 'disagree'],
        [{ ...base, timeout: 1.5 }, 'invalid-job', 'seconds'],
        [{ ...base, overlap: 'sometimes' }, 'invalid-job', 'overlap'],
        [{ ...base, catchUp: 'all' }, 'invalid-job', 'catchUp'],
        [{ ...base, budgetUsd: -1 }, 'invalid-job', 'budgetUsd'],
        [{ ...base, id: '../etc' }, 'invalid-job', 'id'],
      ];
      for (const [input, reason, text] of cases) {
        const error = await cronRejection(store.cron.create(input as never));
        expect([error.reason, error.message]).toEqual([reason, expect.stringContaining(text)]);
      }
      expect(await store.cron.list()).toEqual([]);
      await store.cron.create({ ...base, id: 'j1' });
      expect((await cronRejection(store.cron.create({ ...base, id: 'j2' }))).reason).toBe('conflict');
      expect((await cronRejection(store.cron.create({ ...base, name: 'y', id: 'j1' }))).field).toBe('id');
      expect((await store.cron.list()).length).toBe(1);
    });

    it('updates fields, clears optional ones with null, and a new schedule starts afresh', async () => {
      const job = await store.cron.create(
        { name: 'a', cron: '0 9 * * *', prompt: 'p', model: 'anthropic/claude-sonnet-4-6' },
        { now: NOW },
      );
      await store.cron.create({ name: 'b', cron: '0 9 * * *', prompt: 'p' });
      await store.cron.markScheduled(job.id, { lastScheduledFor: NOW + 1000, nextRunAt: NOW + 2000 });
      const renamed = await store.cron.update(job.id, { prompt: 'q', model: null, timeout: 60 }, { now: NOW + 5000 });
      expect(renamed).toMatchObject({
        prompt: 'q',
        timeoutMs: 60_000,
        lastScheduledFor: NOW + 1000,
        scheduledFrom: NOW,
      });
      expect(renamed.model).toBeUndefined();
      expect((await cronRejection(store.cron.update(job.id, { name: 'b' }))).reason).toBe('conflict');
      expect((await cronRejection(store.cron.update(job.id, { timezone: 'Nowhere/City' }))).reason).toBe(
        'unknown-timezone',
      );
      expect((await cronRejection(store.cron.update('missing', { prompt: 'x' }))).reason).toBe('not-found');
      const moved = await store.cron.update(
        'a',
        { cron: '0 10 * * *', timezone: 'europe/berlin' },
        { now: NOW + 9000 },
      );
      expect(moved).toMatchObject({ cron: '0 10 * * *', timezone: 'Europe/Berlin', scheduledFrom: NOW + 9000 });
      expect(moved.lastScheduledFor).toBeUndefined();
      expect(moved.nextRunAt).toBeUndefined();
    });

    it('disables and enables; enabling moves the start of the count so time off is never caught up', async () => {
      const job = await store.cron.create({ name: 'a', cron: '*/5 * * * *', prompt: 'p' }, { now: NOW });
      const off = await store.cron.disable(job.id, { now: NOW + 1000 });
      expect(off.enabled).toBe(false);
      expect((await store.cron.list({ enabled: true })).length).toBe(0);
      expect((await store.cron.list({ enabled: false })).length).toBe(1);
      const on = await store.cron.enable('a', { now: NOW + 3_600_000 });
      expect(on).toMatchObject({ enabled: true, scheduledFrom: NOW + 3_600_000 });
      // Enabling an enabled job changes nothing.
      expect((await store.cron.enable('a', { now: NOW + 7_200_000 })).scheduledFrom).toBe(NOW + 3_600_000);
    });

    it("previews the next runs in the job's zone across the spring and autumn DST changes", async () => {
      await store.cron.create({ name: 'berlin', cron: '30 2 * * *', timezone: 'Europe/Berlin', prompt: 'p' });
      const spring = await store.cron.nextRuns('berlin', 3, { after: Date.parse('2026-03-28T12:00:00Z') });
      // 02:30 does not exist on 29 March: once, right after the gap; then 02:30 CEST.
      expect(spring.map((run) => run.local)).toEqual([
        '2026-03-29T03:00:00+02:00',
        '2026-03-30T02:30:00+02:00',
        '2026-03-31T02:30:00+02:00',
      ]);
      const autumn = await store.cron.nextRuns('berlin', 2, { after: Date.parse('2026-10-24T12:00:00Z') });
      // 02:30 happens twice on 25 October: once, the first time.
      expect(autumn.map((run) => run.local)).toEqual(['2026-10-25T02:30:00+02:00', '2026-10-26T02:30:00+01:00']);
      expect(autumn[0]).toMatchObject({ iso: '2026-10-25T00:30:00.000Z', at: Date.parse('2026-10-25T00:30:00Z') });
      const spec = await store.cron.nextRuns({ cron: '0 9 * * 1', timezone: 'America/New_York' }, 2, {
        after: Date.parse('2026-03-01T00:00:00Z'),
      });
      expect(spec.map((run) => run.local)).toEqual(['2026-03-02T09:00:00-05:00', '2026-03-09T09:00:00-04:00']);
      expect((await cronRejection(store.cron.nextRuns('berlin', 0))).field).toBe('count');
      expect((await cronRejection(store.cron.nextRuns('berlin', 1001))).field).toBe('count');
      expect((await cronRejection(store.cron.nextRuns('nobody'))).reason).toBe('not-found');
      expect((await cronRejection(store.cron.nextRuns({ cron: 'every day' }))).reason).toBe('invalid-expression');
    });

    it('claims each occurrence once, even when two claims race, and logs what became of it', async () => {
      const job = await store.cron.create({ name: 'a', cron: '* * * * *', prompt: 'p' });
      const at = Date.parse('2026-03-28T12:01:00Z');
      const claims = await Promise.all([
        store.cron.claim(job.id, at, { trigger: 'schedule', status: 'running', startedAt: at + 3 }),
        store.cron.claim(job.id, at, { trigger: 'schedule', status: 'running', startedAt: at + 4 }),
      ]);
      expect(claims.filter((claim) => claim !== undefined).length).toBe(1);
      const claimed = claims.find((claim) => claim !== undefined);
      expect(await store.cron.claim(job.id, at, { trigger: 'catch-up', status: 'running' })).toBeUndefined();
      expect((await store.cron.liveRuns(job.id)).map((entry) => entry.id)).toEqual([claimed?.id]);
      const ended = await store.cron.updateRun(claimed?.id as string, {
        runId: 'run-1',
        sessionId: 'cron-a-1',
        status: 'success',
        outcome: 'end_turn',
        finishedAt: at + 900,
        costUsd: 0.0125,
      });
      expect(ended).toMatchObject({
        jobId: job.id,
        scheduledFor: at,
        trigger: 'schedule',
        status: 'success',
        outcome: 'end_turn',
        costUsd: 0.0125,
        sessionId: 'cron-a-1',
        runId: 'run-1',
        finishedAt: at + 900,
      });
      expect(await store.cron.liveRuns()).toEqual([]);
      const skipped = await store.cron.claim(job.id, at + 60_000, {
        trigger: 'schedule',
        status: 'skipped',
        error: 'the previous run was still running',
      });
      expect(skipped).toMatchObject({ status: 'skipped', finishedAt: at + 60_000 });
      expect((await store.cron.runs('a')).map((entry) => entry.scheduledFor)).toEqual([at + 60_000, at]);
      expect((await store.cron.runs('a', { limit: 1, before: at + 60_000 })).map((entry) => entry.id)).toEqual([
        claimed?.id,
      ]);
      expect(
        (await cronRejection(store.cron.claim('gone', at, { trigger: 'schedule', status: 'running' }))).reason,
      ).toBe('not-found');
      await store.cron.delete(job.id);
      expect(await store.cron.run(claimed?.id as string)).toBeUndefined();
      expect((await cronRejection(store.cron.runs('a'))).reason).toBe('not-found');
      expect((await cronRejection(store.cron.delete('a'))).reason).toBe('not-found');
    });

    it('never moves the last handled occurrence back; the change stamp follows job changes only', async () => {
      const seen: string[] = [];
      const stop = store.cron.onChange((change) => seen.push(`${change.type}`));
      const stamp0 = await store.cron.changeStamp();
      const job = await store.cron.create({ name: 'a', cron: '* * * * *', prompt: 'p' });
      const stamp1 = await store.cron.changeStamp();
      expect(stamp1).not.toBe(stamp0);
      await store.cron.markScheduled(job.id, { lastScheduledFor: 2000, nextRunAt: 3000 });
      await store.cron.markScheduled(job.id, { lastScheduledFor: 1000 });
      expect(await store.cron.get(job.id)).toMatchObject({ lastScheduledFor: 2000, nextRunAt: 3000 });
      expect(await store.cron.changeStamp()).toBe(stamp1);
      await store.cron.update(job.id, { prompt: 'q' });
      await store.cron.update(job.id, { prompt: 'r' });
      const stamp2 = await store.cron.changeStamp();
      expect(stamp2).not.toBe(stamp1);
      await store.cron.delete(job.id);
      expect(await store.cron.changeStamp()).not.toBe(stamp2);
      stop();
      await store.cron.create({ name: 'b', cron: '* * * * *', prompt: 'p' });
      expect(seen).toEqual(['created', 'updated', 'updated', 'deleted']);
    });
  });

  describe(`cron store migration: ${name}`, () => {
    it('upgrades a version 4 database to version 5, carrying over rows written to the v1 cron tables', async () => {
      const backend = await target.openEmptyBackend();
      expect(await migrateStore(backend, 4)).toBe(4);
      await backend.write(async (transaction) => {
        await sql`INSERT INTO cron_jobs (id, name, schedule, payload, enabled, created_at, updated_at, last_run_at, next_run_at)
          VALUES ('old', 'old job', '0 9 * * *', '{"prompt":"Report.","model":"anthropic/claude-sonnet-4-6"}', 0, 10, 20, 30, NULL)`.execute(
          transaction,
        );
        await sql`INSERT INTO cron_runs (id, job_id, started_at, finished_at, status, output)
          VALUES ('r1', 'old', 100, 200, 'succeeded', 'done'), ('r2', 'old', 300, 400, 'failed', 'it broke')`.execute(
          transaction,
        );
      });
      expect(await migrateStore(backend, 5)).toBe(5);
      await backend.close();
      const upgraded = await target.reopen();
      try {
        expect(await upgraded.cron.get('old')).toMatchObject({
          name: 'old job',
          cron: '0 9 * * *',
          timezone: 'UTC',
          prompt: 'Report.',
          model: 'anthropic/claude-sonnet-4-6',
          enabled: false,
          createdAt: 10,
          lastScheduledFor: 30,
          timeoutMs: 180_000,
        });
        expect(
          (await upgraded.cron.runs('old')).map((entry) => [entry.id, entry.scheduledFor, entry.status, entry.error]),
        ).toEqual([
          ['r2', 300, 'failed', 'it broke'],
          ['r1', 100, 'success', undefined],
        ]);
        // The new columns and the unique occurrence key work on the upgraded tables.
        expect(await upgraded.cron.claim('old', 300, { trigger: 'schedule', status: 'running' })).toBeUndefined();
        const job = await upgraded.cron.create({ name: 'new', cron: '0 0 9 * * *', prompt: 'p', overlap: 'queue' });
        expect(job.overlap).toBe('queue');
      } finally {
        await upgraded.close();
      }
    });
  });
}
