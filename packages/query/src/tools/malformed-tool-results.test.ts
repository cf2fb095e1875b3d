import { defineTool, type ToolResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collect, type Harness, startHarness } from '../test/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 100, output: 10 };

/** A tool that resolves to `value` whatever its declared type says (as a plain JavaScript tool can). */
function returning(name: string, value: unknown) {
  return defineTool({
    name,
    description: `Returns a fixed value (${name}).`,
    inputSchema: z.object({}),
    permission: 'read-only',
    execute: async () => value as ToolResult,
  });
}

async function runWith(values: Record<string, unknown>) {
  const names = Object.keys(values);
  harness = await startHarness({
    steps: [
      { content: names.map((name) => ({ type: 'tool_call' as const, name, input: {} })), usage },
      { text: 'done', usage },
    ],
  });
  const result = await collect({
    provider: harness.provider,
    messages: [{ role: 'user', content: 'Go' }],
    tools: names.map((name) => returning(name, values[name])),
    toolContext: { root: harness.root, sessionId: 'malformed' },
    config: { model: 'claude-sonnet-4-6' },
  });
  const second = JSON.stringify(harness.mock.requests[1]?.body);
  return { ...result, second };
}

describe('tool results of the wrong shape, through runQuery', () => {
  it('gives the model the text of a result whose content is a string', async () => {
    const { outcome, events, second } = await runWith({ plain: { content: 'forty-two' } });
    expect(outcome.reason).toBe('end_turn');
    expect(second).toContain('forty-two');
    const end = events.find((event) => event.type === 'tool-end');
    expect(end?.type === 'tool-end' && end.result.isError).not.toBe(true);
  });

  it('keeps isError of a string-content result', async () => {
    const { outcome, second } = await runWith({ failing: { content: 'disk full', isError: true } });
    expect(outcome.reason).toBe('end_turn');
    expect(second).toContain('disk full');
    expect(second).toContain('"is_error":true');
  });

  it('turns every other malformed result into an error result, one per call, and the run goes on', async () => {
    const { outcome, events, second } = await runWith({
      nothing: undefined,
      nullish: null,
      number: 7,
      noContent: { isError: false },
      objectContent: { content: { text: 'x' } },
      badBlock: { content: [{ type: 'video', url: 'x' }] },
      badText: { content: [{ type: 'text', text: 5 }] },
      badImage: { content: [{ type: 'image' }] },
      nullBlock: { content: [null] },
    });
    expect(outcome.reason).toBe('end_turn');
    const ends = events.filter((event) => event.type === 'tool-end');
    expect(ends).toHaveLength(9);
    for (const end of ends) {
      expect(end.type === 'tool-end' && end.result.isError).toBe(true);
      expect(end.type === 'tool-end' && JSON.stringify(end.result.content)).toContain(
        'returned a result the loop cannot use',
      );
    }
    expect(second).toContain('content[0] has type \\"video\\"');
    expect(second).toContain('its \\"content\\" is an object');
    expect(second.match(/"is_error":true/g)).toHaveLength(9);
  });

  it('caps a string-content result like any other when maxResultChars is set', async () => {
    harness = await startHarness({
      steps: [
        { content: [{ type: 'tool_call', name: 'long', input: {} }], usage },
        { text: 'done', usage },
      ],
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Go' }],
      tools: [returning('long', { content: 'x'.repeat(5000) })],
      toolContext: { root: harness.root, sessionId: 'malformed-cap' },
      config: { model: 'claude-sonnet-4-6', tools: { maxResultChars: 100 } },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(JSON.stringify(harness.mock.requests[1]?.body)).toContain('characters cut from the middle');
  });
});
