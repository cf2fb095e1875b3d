import { defineTool, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isTurnOutputLimitError } from './limits/turn-output-limit-error.js';
import { runQueryToEnd } from './loop.js';
import { collect, type Harness, startHarness } from './test/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 100, output: 10 };
type Body = { messages: Array<{ role: string; content: unknown }> };

describe('bounded sizes in the loop', () => {
  it('ends a run whose reply streams past the default output cap with a typed outcome; runQueryToEnd resolves', async () => {
    const huge = 'y'.repeat(6_000_000);
    harness = await startHarness({ steps: [{ text: huge, usage, chunking: { textDelta: 262_144 } }] });
    let deltas = 0;
    const outcome = await runQueryToEnd(
      {
        provider: harness.provider,
        messages: [{ role: 'user', content: 'Say a lot' }],
        toolContext: { root: harness.root, sessionId: 'bs1' },
        config: { model: 'claude-sonnet-4-6' },
      },
      (event) => {
        if (event.type === 'text-delta') deltas += event.delta.length;
      },
    );
    expect(outcome.reason).toBe('error');
    if (outcome.reason !== 'error') return;
    expect(isTurnOutputLimitError(outcome.cause)).toBe(true);
    expect(outcome.error).toContain('maxTurnOutputChars');
    expect(deltas).toBeLessThanOrEqual(4_000_000);
    // Nothing of the dropped reply is kept in the history.
    expect(outcome.messages).toHaveLength(1);
  });

  it('honours a configured output cap', async () => {
    harness = await startHarness({ steps: [{ text: 'z'.repeat(300_000), usage, chunking: { textDelta: 4096 } }] });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Say a lot' }],
      toolContext: { root: harness.root, sessionId: 'bs2' },
      config: { model: 'claude-sonnet-4-6', maxTurnOutputChars: 100_000 },
    });
    expect(outcome.reason === 'error' && isTurnOutputLimitError(outcome.cause)).toBe(true);
  });

  it('caps one tool result, keeping head and tail and saying what was cut', async () => {
    const big = defineTool({
      name: 'dump',
      description: 'Dumps a lot.',
      inputSchema: z.object({}),
      permission: 'read-only',
      execute: async () => textResult(`BEGIN${'d'.repeat(2_000_000)}END`),
    });
    harness = await startHarness({
      steps: [
        { content: [{ type: 'tool_call', name: 'dump', input: {} }], usage },
        { text: 'ok', usage },
      ],
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Dump' }],
      tools: [big],
      toolContext: { root: harness.root, sessionId: 'bs3' },
      config: { model: 'claude-sonnet-4-6', tools: { maxResultChars: 10_000 } },
    });
    expect(outcome.reason).toBe('end_turn');
    const sent = JSON.stringify((harness.mock.requests[1]?.body as Body | undefined)?.messages.at(-1));
    expect(sent.length).toBeLessThan(12_000);
    expect(sent).toContain('BEGIN');
    expect(sent).toContain('END');
    expect(sent).toContain('characters cut from the middle');
  });

  it('runs at most maxCallsPerTurn calls of one reply and answers the rest with errors', async () => {
    let ran = 0;
    const tick = defineTool({
      name: 'tick',
      description: 'Counts.',
      inputSchema: z.object({ n: z.number() }),
      permission: 'read-only',
      execute: async ({ n }) => {
        ran++;
        return textResult(`tick ${n}`);
      },
    });
    harness = await startHarness({
      steps: [
        {
          content: Array.from({ length: 2000 }, (_, n) => ({ type: 'tool_call' as const, name: 'tick', input: { n } })),
          usage,
          chunking: { argumentsDelta: 1000 },
        },
        { text: 'ok', usage },
      ],
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Tick' }],
      tools: [tick],
      toolContext: { root: harness.root, sessionId: 'bs4' },
      config: { model: 'claude-sonnet-4-6' },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(ran).toBe(64);
    const results = outcome.messages[2]?.content;
    expect(Array.isArray(results) && results.length).toBe(2000);
    const last = Array.isArray(results) ? results[1999] : undefined;
    expect(last?.type === 'tool_result' && last.isError).toBe(true);
    expect(JSON.stringify(last)).toContain('at most 64 run per reply');
  });
});
