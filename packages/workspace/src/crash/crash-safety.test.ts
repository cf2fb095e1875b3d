import type { Message } from '@boxagnts/api';
import { INTERRUPTED_TOOL_RESULT } from '@boxagnts/query';
import type { MockScript } from '@boxagnts/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkspaceStore } from '../store/store-types.js';
import type { AppendChildConfig } from './append-plan.js';
import {
  acknowledged,
  type CrashRig,
  integrityCheck,
  missingAcknowledged,
  nextRequest,
  reopen,
  startCrashRig,
  toolAnswers,
} from './crash-harness.test-support.js';
import {
  BLOCKING_TOOL_NAME,
  type CrashChildConfig,
  type CrashStage,
  crashHistory,
  RECOVERED_TEXT,
  stageLine,
} from './crash-scenario.js';
import { messageDigest } from './message-digest.js';
import { CHILD_TEST_TIMEOUT_MS, spawnTsChild, type TsChild } from './ts-child.js';

const usage = { input: 120, output: 20 };
const SESSION = 'crash-session';
const SUMMARY_PROMPT = 'Summarise this conversation';

let rig: CrashRig | undefined;
let child: TsChild | undefined;
let store: WorkspaceStore | undefined;
afterEach(async () => {
  await child?.kill();
  await store?.close();
  await rig?.close();
  child = undefined;
  store = undefined;
  rig = undefined;
});

const scripts: Record<CrashStage, MockScript> = {
  'user-stored': { steps: [{ text: RECOVERED_TEXT, usage }] },
  streaming: {
    chunking: { textDelta: 6 },
    steps: [
      {
        text: 'Starting the migration now. This answer is cut off in the middle and must never be stored.',
        usage,
        fault: { kind: 'stall', afterEvents: 6 },
      },
      { text: RECOVERED_TEXT, usage },
    ],
  },
  'tool-started': {
    steps: [
      {
        content: [
          { type: 'text', text: 'Running the migration.' },
          { type: 'tool_call', id: 'toolu_crash_1', name: BLOCKING_TOOL_NAME, input: { name: 'add-index' } },
        ],
        usage,
      },
      { text: RECOVERED_TEXT, usage },
    ],
  },
  compacting: {
    rules: [
      {
        match: { contains: SUMMARY_PROMPT },
        steps: [
          { text: 'This summary is never sent.', fault: { kind: 'stall' } },
          { text: 'SUMMARY: tables 0 to 3 of the billing database are migrated.', usage },
        ],
      },
    ],
    steps: [{ text: RECOVERED_TEXT, usage }],
  },
};

/** Runs the crash child to `stage`, kills it there, and reopens the store it wrote. */
async function crashAt(stage: CrashStage) {
  rig = await startCrashRig(scripts[stage]);
  const config: CrashChildConfig = { databasePath: rig.databasePath, mockUrl: rig.mock.url, sessionId: SESSION, stage };
  child = spawnTsChild('crash-child.ts', [JSON.stringify(config)]);
  await child.waitForLine((line) => line === stageLine(stage), `"${stageLine(stage)}"`);
  // During compaction the kill lands while the summarising call is in flight.
  if (stage === 'compacting') await rig.request((request) => JSON.stringify(request.body).includes(SUMMARY_PROMPT));
  const exit = await child.kill();
  expect(exit.signal).toBe('SIGKILL');
  const acks = acknowledged(child);
  store = await reopen(rig);
  const entries = await store.sessions.load(SESSION);
  expect(integrityCheck(rig.databasePath)).toEqual(['ok']);
  // Nothing acknowledged is missing, and nothing unacknowledged was stored.
  expect(missingAcknowledged(acks, entries)).toEqual([]);
  expect(entries).toHaveLength(acks.size);
  return { rig, store, entries, acks, requestsBefore: rig.mock.requests.length };
}

function assistantText(message: Message | undefined): string {
  if (message?.role !== 'assistant') return '';
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

function expectEveryToolUseAnsweredOnce(messages: readonly Message[]): void {
  for (const [id, count] of toolAnswers(messages)) expect({ id, count }).toEqual({ id, count: 1 });
}

describe('crash safety: a child killed with SIGKILL at each stage of a turn', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('after the user message is stored: the message is there and the next request answers it', async () => {
    const crash = await crashAt('user-stored');
    expect(crash.acks.size).toBe(1);
    expect(crash.requestsBefore).toBe(0);
    const history = await crash.store.sessions.resume(SESSION);
    expect(history.map(messageDigest)).toEqual(crashHistory('user-stored').map(messageDigest));
    const outcome = await nextRequest(crash.rig, crash.store, 'user-stored', SESSION, history);
    expect(outcome.reason).toBe('end_turn');
    const after = await crash.store.sessions.load(SESSION);
    expect(after.map((entry) => entry.message.role)).toEqual(['user', 'assistant']);
    expect(assistantText(after[1]?.message)).toBe(RECOVERED_TEXT);
    expect((await crash.store.sessions.get(SESSION))?.messageCount).toBe(2);
  });

  it('mid-stream: the partial answer is not stored and the turn is asked again', async () => {
    const crash = await crashAt('streaming');
    expect(crash.acks.size).toBe(1);
    expect(crash.requestsBefore).toBe(1);
    const history = await crash.store.sessions.resume(SESSION);
    expect(history.map(messageDigest)).toEqual(crashHistory('streaming').map(messageDigest));
    const outcome = await nextRequest(crash.rig, crash.store, 'streaming', SESSION, history);
    expect(outcome.reason).toBe('end_turn');
    const retried = crash.rig.mock.requests[1]?.body as { messages: unknown[] };
    expect(retried.messages).toHaveLength(1);
    const after = await crash.store.sessions.load(SESSION);
    expect(after.map((entry) => entry.message.role)).toEqual(['user', 'assistant']);
    expect(assistantText(after[1]?.message)).toBe(RECOVERED_TEXT);
    expect(JSON.stringify(after)).not.toContain('must never be stored');
  });

  it('between a tool call and its result: the call gets an "interrupted" result and is not run again', async () => {
    const crash = await crashAt('tool-started');
    expect(crash.acks.size).toBe(2);
    expect(crash.entries[1]?.message.role).toBe('assistant');
    const history = await crash.store.sessions.resume(SESSION);
    expect(history.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expectEveryToolUseAnsweredOnce(history);
    expect(history[2]?.content).toEqual([
      { type: 'tool_result', toolUseId: 'toolu_crash_1', content: INTERRUPTED_TOOL_RESULT, isError: true },
    ]);
    const question: Message = { role: 'user', content: 'Did the migration finish?' };
    const outcome = await nextRequest(crash.rig, crash.store, 'tool-started', SESSION, [...history, question]);
    expect(outcome.reason).toBe('end_turn');
    expect(outcome.turns).toBe(1);
    const sent = JSON.stringify(crash.rig.mock.requests[1]?.body);
    expect(sent).toContain('toolu_crash_1');
    expect(sent).toContain('interrupted');
    const after = await crash.store.sessions.load(SESSION);
    expect(missingAcknowledged(crash.acks, after)).toEqual([]);
    expect(assistantText(after.at(-1)?.message)).toBe(RECOVERED_TEXT);
    expect(JSON.stringify(after)).toContain('Did the migration finish?');
    const resumed = await crash.store.sessions.resume(SESSION);
    expectEveryToolUseAnsweredOnce(resumed);
    expect(resumed.at(-1)?.role).toBe('assistant');
  });

  it('during compaction: the full history survives and the next request compacts and answers', async () => {
    const crash = await crashAt('compacting');
    const original = crashHistory('compacting');
    expect(crash.acks.size).toBe(original.length);
    expect(crash.entries.some((entry) => entry.compaction !== undefined)).toBe(false);
    const history = await crash.store.sessions.resume(SESSION);
    expect(history.map(messageDigest)).toEqual(original.map(messageDigest));
    const outcome = await nextRequest(crash.rig, crash.store, 'compacting', SESSION, history);
    expect(outcome.reason).toBe('end_turn');
    const after = await crash.store.sessions.load(SESSION);
    expect(missingAcknowledged(crash.acks, after)).toEqual([]);
    const summaries = after.filter((entry) => entry.compaction !== undefined);
    expect(summaries).toHaveLength(1);
    expect(JSON.stringify(summaries[0]?.message)).toContain('SUMMARY: tables 0 to 3');
    expect(assistantText(after.at(-1)?.message)).toBe(RECOVERED_TEXT);
    const resumed = await crash.store.sessions.resume(SESSION);
    expect(JSON.stringify(resumed[0])).toContain('[Conversation summary]');
    expect(resumed.length).toBeLessThan(after.length);
    expectEveryToolUseAnsweredOnce(resumed);
  });
});

describe('crash safety: a child killed in the middle of a burst of appends', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('keeps every acknowledged entry, leaves no torn transaction, and accepts the next append', async () => {
    rig = await startCrashRig({ steps: [] });
    const config: AppendChildConfig = {
      databasePath: rig.databasePath,
      writer: 'burst',
      plan: [{ sessionId: 'burst', count: 0 }],
      mode: 'burst',
    };
    child = spawnTsChild('append-child.ts', [JSON.stringify(config)]);
    await child.waitForLine((line) => line === 'READY', '"READY"');
    child.send('go');
    await child.waitForLine((line) => /^ACK (\d+) /.exec(line)?.[1] === '300', 'acknowledging entry 300');
    const exit = await child.kill();
    expect(exit.signal).toBe('SIGKILL');
    const acks = acknowledged(child);
    store = await reopen(rig);
    expect(integrityCheck(rig.databasePath)).toEqual(['ok']);
    const entries = await store.sessions.load('burst');
    expect(missingAcknowledged(acks, entries)).toEqual([]);
    // At most the one batch in flight when the kill landed is stored without its ACK (whole, never half).
    expect(entries.length - acks.size).toBeGreaterThanOrEqual(0);
    expect(entries.length - acks.size).toBeLessThanOrEqual(3);
    expect((await store.sessions.get('burst'))?.messageCount).toBe(entries.length);
    await store.sessions.append('burst', [{ message: { role: 'user', content: 'after the crash' } }]);
    const after = await store.sessions.load('burst');
    expect(after).toHaveLength(entries.length + 1);
    expect(after.at(-1)?.message.content).toBe('after the crash');
  });
});

describe('crash safety: a child killed while it records usage and announces sub-agent sessions', {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('keeps every acknowledged usage record and child session, and at most the one in flight more', async () => {
    rig = await startCrashRig({ steps: [] });
    const config: AppendChildConfig = {
      databasePath: rig.databasePath,
      writer: 'records',
      plan: [{ sessionId: 'records', count: 0 }],
      mode: 'run-records',
    };
    child = spawnTsChild('append-child.ts', [JSON.stringify(config)]);
    await child.waitForLine((line) => line === 'READY', '"READY"');
    child.send('go');
    await child.waitForLine((line) => line === 'USAGE 150', 'acknowledging usage record 150');
    const exit = await child.kill();
    expect(exit.signal).toBe('SIGKILL');
    const last = (prefix: string) =>
      Math.max(0, ...child!.lines.filter((line) => line.startsWith(prefix)).map((line) => Number(line.split(' ')[1])));
    const usageAcks = last('USAGE ');
    const childAcks = last('CHILD ');
    store = await reopen(rig);
    expect(integrityCheck(rig.databasePath)).toEqual(['ok']);
    const calls = (await store.usage.report('session')).find((row) => row.key === 'records')?.calls ?? 0;
    expect(calls - usageAcks).toBeGreaterThanOrEqual(0);
    expect(calls - usageAcks).toBeLessThanOrEqual(1);
    const children = await store.sessions.children('records');
    expect(children.length - childAcks).toBeGreaterThanOrEqual(0);
    expect(children.length - childAcks).toBeLessThanOrEqual(1);
    for (const kid of children) expect(kid).toMatchObject({ kind: 'sub-agent', parentSessionId: 'records' });
    // The store takes the next write.
    await store.sessions.recordUsage({
      sessionId: 'records',
      provider: 'anthropic',
      model: 'claude-test',
      purpose: 'turn',
      usage: {
        input: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        output: { total: 1, text: 1, reasoning: 0 },
      },
    });
    expect((await store.usage.report('session')).find((row) => row.key === 'records')?.calls).toBe(calls + 1);
  });
});
