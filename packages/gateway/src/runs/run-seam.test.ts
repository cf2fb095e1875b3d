import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@boxagnts/api';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent/create-agent.js';
import { type RunningGateway, startGateway } from '../gateway.js';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';
import { type RunChange, RunManager } from './run-manager.js';
import type { RunLog } from './run-types.js';
import { openSqliteRunLog } from './sqlite-run-log.js';

let current: TestWorkspace | undefined;
let gateway: RunningGateway | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await gateway?.close();
  await current?.close();
  gateway = undefined;
  current = undefined;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const user = (text: string): Message[] => [{ role: 'user', content: text }];

/** An agent whose run never ends and ignores its abort signal (a tool stuck in a blocking call). */
function stuckAgent(): { agent: Agent; released: () => number } {
  const releases = 0;
  const never = new Promise<never>(() => {});
  const agent = {
    workspace: { store: { sessions: { get: async () => undefined } } },
    run: () => ({
      sessionId: 'stuck',
      outcome: never,
      async *[Symbol.asyncIterator]() {
        yield { type: 'status', kind: 'info', message: 'blocking' };
        await never;
      },
    }),
  } as unknown as Agent;
  return { agent, released: () => releases };
}

async function tempLog(): Promise<RunLog> {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-run-seam-'));
  const log = openSqliteRunLog(join(dir, 'gateway.db'));
  cleanups.push(async () => {
    await log.close();
    await rm(dir, { recursive: true, force: true });
  });
  return log;
}

describe('the run seam (origin, dedupe, timeout, subscribe, list)', () => {
  it('abandons a run that ignores cancellation after its timeout, frees its session and ignores its late end', async () => {
    const log = await tempLog();
    const stuck = stuckAgent();
    let leases = 0;
    let released = 0;
    const manager = new RunManager({
      log,
      acquireAgent: async () => {
        leases++;
        return { agent: stuck.agent, release: () => released++ };
      },
      defaultAgent: 'build',
      hasAgent: () => true,
      abandonAfterMs: 100,
    });
    cleanups.push(() => manager.close());
    const changes: RunChange[] = [];
    manager.subscribe((change) => changes.push(change));
    const first = await manager.start({ sessionId: 's', input: user('hang'), timeoutMs: 150 });
    // A second run on the busy session waits behind the stuck one.
    const second = await manager.start({ sessionId: 's', input: user('next'), busy: 'enqueue', timeoutMs: 100 });
    expect(second.status).toBe('queued');
    const ended = await manager.wait(first.id);
    expect(ended).toMatchObject({ status: 'failed', reason: 'timeout' });
    expect(ended.error).toContain('abandoned');
    expect(ended.finishedAt).toBeGreaterThanOrEqual(ended.startedAt as number);
    // The session is free: the queued run was dispatched and is executing (stuck as well, here).
    await expect.poll(async () => (await manager.get(second.id)).status).toBe('running');
    const events = (await log.events(first.id, 0)).map((event) => event.type);
    expect(events.filter((type) => type === 'run-end')).toHaveLength(1);
    expect(events.at(-1)).toBe('run-end');
    expect(changes.filter((change) => change.record.id === first.id).map((change) => change.type)).toEqual([
      'started',
      'ended',
    ]);
    expect(leases).toBe(2);
    // The stuck agent is not handed back to the pool (its blocked call may still use its tools).
    expect(released).toBe(0);
    expect(await manager.wait(second.id)).toMatchObject({ status: 'failed', reason: 'timeout' });
  });

  it('a second start with the same dedupe key returns the same record and runs nothing more', async () => {
    current = await createTestWorkspace({ steps: [{ text: 'once' }, { text: 'twice' }] });
    gateway = await startGateway({ workspace: current.workspace, port: 0, sandbox: { bash: false, jsExec: false } });
    const origin = { kind: 'cron' as const, jobId: 'job-1', scheduledFor: Date.UTC(2026, 0, 1, 9) };
    const key = 'cron:job-1:2026-01-01T09:00:00.000Z';
    const [a, b] = await Promise.all([
      gateway.runs.start({ sessionId: 'cron-a', input: user('report'), origin, dedupeKey: key }),
      gateway.runs.start({ sessionId: 'cron-b', input: user('report'), origin, dedupeKey: key }),
    ]);
    expect(b?.id).toBe(a?.id);
    expect([a?.deduplicated, b?.deduplicated].filter(Boolean)).toHaveLength(1);
    const done = await gateway.runs.wait(a?.id as string);
    expect(done).toMatchObject({ status: 'completed', text: 'once', origin, dedupeKey: key });
    const again = await gateway.runs.start({ sessionId: 'cron-c', input: user('report'), origin, dedupeKey: key });
    expect(again).toMatchObject({ id: a?.id, deduplicated: true, status: 'completed' });
    expect(current.mock.requests).toHaveLength(1);
    expect(await gateway.runs.list({ originJobId: 'job-1' })).toHaveLength(1);
    expect(await gateway.runs.list({ originJobId: 'job-2' })).toHaveLength(0);
  });

  it('tells a subscriber once when a run starts and once when it ends, with its cost and times', async () => {
    current = await createTestWorkspace({ steps: [{ text: 'done', usage: { input: 1000, output: 100 } }] });
    gateway = await startGateway({ workspace: current.workspace, port: 0, sandbox: { bash: false, jsExec: false } });
    const changes: RunChange[] = [];
    const off = gateway.runs.subscribe((change) => changes.push(change));
    gateway.runs.subscribe(() => {
      throw new Error('a failing subscriber is ignored');
    });
    const run = await gateway.runs.start({ sessionId: 'sub', input: user('hi') });
    expect(run.origin).toEqual({ kind: 'user' });
    const done = await gateway.runs.wait(run.id);
    await expect.poll(() => changes.length).toBe(2);
    expect(changes.map((change) => change.type)).toEqual(['started', 'ended']);
    expect(changes[1]?.record).toMatchObject({ id: run.id, status: 'completed', reason: 'end_turn' });
    expect(done.costUsd).toBeGreaterThan(0);
    expect(done.startedAt).toBeGreaterThanOrEqual(done.createdAt);
    expect(done.finishedAt).toBeGreaterThanOrEqual(done.startedAt as number);
    off();
  });

  it('cancels a run that honours cancellation at its timeout (reason timeout, status cancelled)', async () => {
    current = await createTestWorkspace({
      chunking: { textDelta: 1, delayMs: 40 },
      steps: [{ text: 'slow '.repeat(200) }],
    });
    gateway = await startGateway({ workspace: current.workspace, port: 0, sandbox: { bash: false, jsExec: false } });
    const run = await gateway.runs.start({ sessionId: 't', input: user('go'), timeoutMs: 300 });
    const done = await gateway.runs.wait(run.id);
    expect(done).toMatchObject({ status: 'cancelled', reason: 'timeout' });
    expect(done.error).toContain('timeout of 300 ms');
  });

  it('refuses a bad dedupe key or timeout with a typed error', async () => {
    const log = await tempLog();
    const manager = new RunManager({
      log,
      acquireAgent: async () => ({ agent: stuckAgent().agent, release: () => {} }),
      defaultAgent: 'build',
      hasAgent: () => true,
    });
    cleanups.push(() => manager.close());
    await expect(manager.start({ sessionId: 's', input: user('x'), dedupeKey: '' })).rejects.toMatchObject({
      reason: 'invalid-request',
    });
    for (const timeoutMs of [0, -5, Number.NaN, 2 ** 40]) {
      await expect(manager.start({ sessionId: 's', input: user('x'), timeoutMs })).rejects.toMatchObject({
        reason: 'invalid-request',
      });
    }
    expect(await log.list()).toHaveLength(0);
  });

  it('a message injected after the last model call is answered in a follow-up turn, not dropped', async () => {
    current = await createTestWorkspace({
      chunking: { textDelta: 4, delayMs: 20 },
      steps: [{ text: 'first answer with several words in it' }, { text: 'answer to the late message' }],
    });
    gateway = await startGateway({ workspace: current.workspace, port: 0, sandbox: { bash: false, jsExec: false } });
    const run = await gateway.runs.start({ sessionId: 'late', input: user('start') });
    for await (const event of gateway.runs.events(run.id, 0)) {
      if (event.type === 'text-delta') break;
    }
    await gateway.runs.inject(run.id, { role: 'user', content: 'one more thing' });
    const done = await gateway.runs.wait(run.id);
    expect(done).toMatchObject({ status: 'completed', text: 'answer to the late message' });
  });
});
