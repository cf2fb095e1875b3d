import { afterAll, describe, expect, it } from 'vitest';
import type { FixtureTask } from './pool-fixture.test-worker.js';
import { ThreadPool } from './thread-pool.js';
import { withTickMonitor } from './tick-monitor.test-helpers.js';
import { resolveWorkerScript } from './worker-script.js';

const pools: ThreadPool[] = [];

function pool(maxWorkers = 2, maxHeapMb = 64): ThreadPool {
  const created = new ThreadPool({
    script: () => resolveWorkerScript(import.meta.url, 'thread-pool', 'pool-fixture.test-worker'),
    maxWorkers,
    maxHeapMb,
  });
  pools.push(created);
  return created;
}

function run(target: ThreadPool, task: FixtureTask, deadlineMs = 10_000, signal?: AbortSignal) {
  return target.run<unknown>(task, { deadlineMs, ...(signal === undefined ? {} : { signal }) });
}

afterAll(async () => {
  await Promise.all(pools.map((each) => each.close()));
});

describe('ThreadPool', () => {
  it('answers tasks and reuses its workers across many calls', async () => {
    const target = pool(2);
    for (let index = 0; index < 300; index++) {
      expect(await run(target, { op: 'echo', value: { index } })).toEqual({ status: 'ok', value: { index } });
    }
    expect(target.workersStarted).toBe(1);
    const parallel = await Promise.all(
      Array.from({ length: 40 }, (_, index) => run(target, { op: 'echo', value: index })),
    );
    expect(parallel.map((outcome) => (outcome.status === 'ok' ? outcome.value : undefined))).toEqual(
      Array.from({ length: 40 }, (_, index) => index),
    );
    expect(target.workersStarted).toBeLessThanOrEqual(2);
  });

  it('gives workers an empty environment', async () => {
    expect(await run(pool(1), { op: 'env' })).toEqual({ status: 'ok', value: 0 });
  });

  it('terminates a spinning worker at the deadline, keeps the host ticking, and replaces it', async () => {
    const target = pool(1);
    const { value, report } = await withTickMonitor(() => run(target, { op: 'spin' }, 800));
    expect(value).toEqual({ status: 'timed-out' });
    expect(report.longestGapMs).toBeLessThan(1_000);
    expect(await run(target, { op: 'echo', value: 'next' })).toEqual({ status: 'ok', value: 'next' });
    expect(target.workersStarted).toBe(2);
  });

  it('times out a task still waiting in the queue without running it', async () => {
    const target = pool(1);
    const first = run(target, { op: 'spin' }, 1_500);
    const queued = await run(target, { op: 'echo', value: 'late' }, 300);
    expect(queued).toEqual({ status: 'timed-out' });
    expect(await first).toEqual({ status: 'timed-out' });
  });

  it('runs tasks queued behind a killed one in order', async () => {
    const target = pool(1);
    const results = await Promise.all([
      run(target, { op: 'spin' }, 500),
      run(target, { op: 'echo', value: 1 }, 5_000),
      run(target, { op: 'echo', value: 2 }, 5_000),
    ]);
    expect(results).toEqual([{ status: 'timed-out' }, { status: 'ok', value: 1 }, { status: 'ok', value: 2 }]);
  });

  it('lets a cancelled task stop by itself, and terminates one that does not', async () => {
    const target = pool(1);
    const polite = new AbortController();
    setTimeout(() => polite.abort(), 100);
    expect(await run(target, { op: 'wait-for-cancel' }, 10_000, polite.signal)).toEqual({
      status: 'ok',
      value: 'stopped cleanly',
    });
    const rude = new AbortController();
    setTimeout(() => rude.abort(), 100);
    expect(await run(target, { op: 'spin' }, 60_000, rude.signal)).toEqual({ status: 'aborted' });
    const aborted = new AbortController();
    aborted.abort();
    expect(await run(target, { op: 'echo', value: 1 }, 1_000, aborted.signal)).toEqual({ status: 'aborted' });
  });

  it('reports a thrown error, a worker that exits and one that runs out of heap, then keeps working', async () => {
    const target = pool(1, 32);
    expect(await run(target, { op: 'throw', message: 'bad input' })).toEqual({ status: 'error', message: 'bad input' });
    expect(await run(target, { op: 'exit' })).toMatchObject({
      status: 'crashed',
      message: expect.stringContaining('code 3'),
    });
    const { value, report } = await withTickMonitor(() => run(target, { op: 'allocate' }, 60_000));
    expect(value).toMatchObject({ status: 'out-of-memory', message: expect.stringContaining('32 MiB') });
    expect(report.longestGapMs).toBeLessThan(1_000);
    expect(await run(target, { op: 'echo', value: 'alive' })).toEqual({ status: 'ok', value: 'alive' });
  }, 90_000);

  it('answers every later call with a crash once closed', async () => {
    const target = pool(1);
    const running = run(target, { op: 'spin' }, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await target.close();
    expect(await running).toMatchObject({ status: 'crashed' });
    expect(await run(target, { op: 'echo', value: 1 })).toMatchObject({ status: 'crashed' });
  });

  it('reports a missing worker script as a crash with the path', async () => {
    const broken = new ThreadPool({
      script: () => resolveWorkerScript(import.meta.url, 'thread-pool', 'no-such-worker'),
      maxWorkers: 1,
      maxHeapMb: 32,
    });
    expect(await broken.run({}, { deadlineMs: 1_000 })).toMatchObject({
      status: 'crashed',
      message: expect.stringContaining('no-such-worker.js is missing'),
    });
  });
});
