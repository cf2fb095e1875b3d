import type { MockStep } from '@boxagnts/testkit';
import { defineTool, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemorySessionStore } from '../session/session-store.js';
import { collect, type Harness, startHarness } from '../test/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type Body = { messages: Array<{ role: string; content: unknown }> };
const SUMMARY_MARK = 'Summarise this conversation';
const ORIGINAL = 'Rename foo to bar across src/. Constraint that must hold to the end: never edit tests/.';

const read = defineTool({
  name: 'read',
  description: 'Read a file.',
  inputSchema: z.object({ file_path: z.string() }),
  permission: 'read-only',
  execute: async ({ file_path }) => textResult(`${file_path}\n${'x'.repeat(6000)}`),
});

function readSteps(count: number, input: number): MockStep[] {
  return Array.from({ length: count }, (_, index) => ({
    content: [{ type: 'tool_call' as const, name: 'read', input: { file_path: `src/file${index}.ts` } }],
    usage: { input, output: 10 },
  }));
}

/** A long summary that forgets the constraint: what a real model may well write. */
const forgetfulSummary = {
  match: { contains: SUMMARY_MARK },
  steps: [
    {
      text: `Worked on the rename. ${'Read more files and noted details. '.repeat(80)}`,
      usage: { input: 50_000, output: 500 },
    },
  ],
  repeatLast: true,
};

function mainRequests(): Body[] {
  return (harness?.mock.requests ?? [])
    .map((request) => request.body as Body)
    .filter((body) => !JSON.stringify(body.messages).includes(SUMMARY_MARK));
}

describe('long runs', () => {
  it('keeps the original request verbatim through five compactions in one run', async () => {
    harness = await startHarness({
      rules: [forgetfulSummary],
      steps: [...readSteps(6, 3500), { text: 'done', usage: { input: 100, output: 5 } }],
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: ORIGINAL }],
      tools: [read],
      toolContext: { root: harness.root, sessionId: 'lr1' },
      config: { model: 'claude-sonnet-4-6', contextWindow: 4000, compaction: { keepRecentTurns: 1 } },
    });
    expect(outcome.reason).toBe('end_turn');
    const summaries = harness.mock.requests.length - mainRequests().length;
    expect(summaries).toBeGreaterThanOrEqual(5);
    const last = mainRequests().at(-1) as Body;
    expect(JSON.stringify(last.messages[0]?.content)).toContain(JSON.stringify(ORIGINAL).slice(1, -1));
  });

  it('counts every summary call in usage, cost, budget and the store, tagged by purpose', async () => {
    harness = await startHarness({
      rules: [forgetfulSummary],
      steps: [...readSteps(3, 2500), { text: 'done', usage: { input: 100, output: 5 } }],
    });
    const store = createMemorySessionStore();
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: ORIGINAL }],
      tools: [read],
      toolContext: { root: harness.root, sessionId: 'lr2' },
      session: { store, sessionId: 'lr2' },
      config: { model: 'claude-sonnet-4-6', contextWindow: 3000, compaction: { keepRecentTurns: 1 }, budgetUsd: 5 },
    });
    expect(outcome.reason).toBe('end_turn');
    const summaries = harness.mock.requests.length - mainRequests().length;
    expect(summaries).toBeGreaterThan(0);
    expect(outcome.usage.total.calls).toBe(harness.mock.requests.length);
    expect(outcome.usage.byPurpose.compaction?.calls).toBe(summaries);
    expect(outcome.usage.byPurpose.turn?.calls).toBe(outcome.turns);
    // 50k input tokens at $3/M per summary call.
    expect(outcome.usage.byPurpose.compaction?.costUsd).toBeCloseTo(summaries * (0.15 + 500 * 15e-6), 6);
    const records = store.usageRecords();
    expect(records).toHaveLength(harness.mock.requests.length);
    expect(records.filter((record) => record.purpose === 'compaction')).toHaveLength(summaries);
    expect(records.every((record) => record.sessionId === 'lr2' && record.provider === 'anthropic')).toBe(true);
    const recordedUsd = records.reduce((sum, record) => sum + (record.costUsd ?? 0), 0);
    expect(recordedUsd).toBeCloseTo(outcome.usage.total.costUsd, 9);
  });

  it('compacts proactively from the estimate when the provider reports 0 input tokens', async () => {
    harness = await startHarness({
      rules: [forgetfulSummary],
      steps: [...readSteps(4, 0), { text: 'done', usage: { input: 0, output: 5 } }],
    });
    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: ORIGINAL }],
      tools: [read],
      toolContext: { root: harness.root, sessionId: 'lr3' },
      config: { model: 'claude-sonnet-4-6', contextWindow: 3000, compaction: { keepRecentTurns: 1 } },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(events.some((event) => event.type === 'status' && event.kind === 'compacting')).toBe(true);
  });

  it('recovers from a context overflow each time it happens, not once per run', async () => {
    const overflow: MockStep = { fault: { kind: 'http_error', error: 'context_overflow' } };
    const [first, second, third] = readSteps(3, 500);
    harness = await startHarness({
      rules: [forgetfulSummary],
      steps: [
        first,
        overflow,
        second,
        overflow,
        third,
        overflow,
        { text: 'done', usage: { input: 100, output: 5 } },
      ] as MockStep[],
    });
    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: ORIGINAL }],
      tools: [read],
      toolContext: { root: harness.root, sessionId: 'lr4' },
      config: { model: 'claude-sonnet-4-6', compaction: { keepRecentTurns: 1 } },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(events.filter((event) => event.type === 'recoverable-error' && event.action === 'compact')).toHaveLength(3);
  });

  it('stops with context_overflow when the provider overflows in a row however it is compacted', async () => {
    const overflow: MockStep = { fault: { kind: 'http_error', error: 'context_overflow' } };
    harness = await startHarness({
      rules: [forgetfulSummary],
      steps: [...readSteps(2, 500), overflow],
      repeatLast: true,
    });
    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: ORIGINAL }],
      tools: [read],
      toolContext: { root: harness.root, sessionId: 'lr5' },
      config: { model: 'claude-sonnet-4-6', compaction: { keepRecentTurns: 1 } },
    });
    expect(outcome.reason).toBe('context_overflow');
    expect(events.filter((event) => event.type === 'recoverable-error').length).toBeLessThanOrEqual(2);
  });
});
