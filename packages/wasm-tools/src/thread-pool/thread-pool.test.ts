import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { FixtureTask } from './pool-fixture.test-worker.js';
import type { SlowFixtureTask } from './pool-fixture-slow.test-worker.js';
import { ThreadPool } from './thread-pool.js';
import { withTickMonitor } from './tick-monitor.test-helpers.js';
import { resolveWorkerScript } from './worker-script.js';

const pools: ThreadPool[] = [];

function pool(maxWorkers = 2, maxHeapMb = 64, idleMs?: number): ThreadPool {
  const created = new ThreadPool({
    script: () => resolveWorkerScript(import.meta.url, 'thread-pool', 'pool-fixture.test-worker'),
    maxWorkers,
    maxHeapMb,
    ...(idleMs === undefined ? {} : { idleMs }),
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

  it('drops what a worker prints instead of passing it to the host', async () => {
    const target = pool(1);
    expect(await run(target, { op: 'print', times: 20_000 })).toEqual({ status: 'ok', value: 'printed' });
  });

  it('gives workers an empty environment', async () => {
    expect(await run(pool(1), { op: 'env' })).toEqual({ status: 'ok', value: 0 });
  });

  it('terminates a spinning worker at the deadline, keeps the host ticking, and replaces it', async () => {
    const target = pool(1);
    const { value, report } = await withTickMonitor(() => run(target, { op: 'spin' }, 800));
    expect(value).toEqual({ status: 'timed-out', stage: 'run' });
    expect(report.longestGapMs).toBeLessThan(1_000);
    expect(await run(target, { op: 'echo', value: 'next' })).toEqual({ status: 'ok', value: 'next' });
    expect(target.workersStarted).toBe(2);
  });

  it('times out a task still waiting for a worker at its start timeout, without running it', async () => {
    const target = pool(1);
    const first = run(target, { op: 'spin' }, 1_500);
    const queued = await target.run({ op: 'echo', value: 'late' }, { deadlineMs: 10_000, startTimeoutMs: 300 });
    expect(queued).toEqual({ status: 'timed-out', stage: 'start' });
    expect(await first).toEqual({ status: 'timed-out', stage: 'run' });
  });

  it('runs tasks queued behind a killed one in order', async () => {
    const target = pool(1);
    const results = await Promise.all([
      run(target, { op: 'spin' }, 500),
      run(target, { op: 'echo', value: 1 }, 5_000),
      run(target, { op: 'echo', value: 2 }, 5_000),
    ]);
    expect(results).toEqual([
      { status: 'timed-out', stage: 'run' },
      { status: 'ok', value: 1 },
      { status: 'ok', value: 2 },
    ]);
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

  it('counts a deadline from when the task runs: time queued behind other tasks is not its own', async () => {
    // One thread, three tasks of 400 ms each submitted at once with a 700 ms deadline: the last one
    // waits 800 ms for the thread, then runs 400 ms, within its deadline.
    const target = pool(1);
    const results = await Promise.all([1, 2, 3].map((value) => run(target, { op: 'busy', ms: 400, value }, 700)));
    expect(results).toEqual([1, 2, 3].map((value) => ({ status: 'ok', value })));
  });

  it('does not charge a slow thread start to the task, and still stops the task at its deadline', async () => {
    const slow = new ThreadPool({
      script: () => resolveWorkerScript(import.meta.url, 'thread-pool', 'pool-fixture-slow.test-worker'),
      maxWorkers: 1,
      maxHeapMb: 32,
    });
    pools.push(slow);
    // The thread takes 1 s to start and each task prepares 500 ms before it reports running: a
    // 300 ms deadline covers the task's own work only.
    const task = (then: SlowFixtureTask['then']): SlowFixtureTask => ({ prepareMs: 500, then, value: then });
    expect(await slow.run(task('echo'), { deadlineMs: 300 })).toEqual({ status: 'ok', value: 'echo' });
    const started = Date.now();
    expect(await slow.run(task('spin'), { deadlineMs: 300 })).toEqual({ status: 'timed-out', stage: 'run' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
    // A start that takes longer than the start timeout ends the task, and its thread with it.
    expect(await slow.run(task('echo'), { deadlineMs: 10_000, startTimeoutMs: 600 })).toEqual({
      status: 'timed-out',
      stage: 'start',
    });
    expect(slow.liveWorkers).toBe(0);
  }, 30_000);

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

  it('lets idle workers exit after the idle time', async () => {
    const target = pool(2, 64, 200);
    await Promise.all([run(target, { op: 'echo', value: 1 }), run(target, { op: 'echo', value: 2 })]);
    expect(target.liveWorkers).toBeGreaterThan(0);
    await vi.waitFor(() => expect(target.liveWorkers).toBe(0), { timeout: 10_000, interval: 50 });
    expect(await run(target, { op: 'echo', value: 3 })).toEqual({ status: 'ok', value: 3 });
  });

  it('never keeps a process alive once its tools are idle', async () => {
    // A real Node process runs bash, js_exec and web_fetch's converter once each and must then
    // exit by itself, with the pooled threads still alive (their idle time is 30 s).
    const folder = await mkdtemp(join(tmpdir(), 'pool-exit-'));
    const entry = fileURLToPath(new URL('../index.ts', import.meta.url));
    const script = join(folder, 'main.mts');
    await writeFile(
      script,
      `import { createBashTool, createJsExecTool } from ${JSON.stringify(entry)};
const context = { root: ${JSON.stringify(folder)}, signal: new AbortController().signal, sessionId: 's', turnId: 't', toolCallId: 'c' };
const bash = await createBashTool().execute({ command: 'echo from-bash' }, context);
const js = await createJsExecTool().execute({ code: '6 * 7' }, context);
console.log(JSON.stringify([bash.content, js.content]));
`,
    );
    const tsx = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
    const child = spawn(tsx, [script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '--conditions=@boxagnts/source' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    clearTimeout(killer);
    await rm(folder, { recursive: true, force: true });
    expect({ code, signal }, output).toEqual({ code: 0, signal: null });
    expect(output).toContain('from-bash');
    expect(output).toContain('result: 42');
  }, 40_000);
});
