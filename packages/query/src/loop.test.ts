import { defineTool, errorResult, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemorySessionStore } from './session/session-store.js';
import { collect, type Harness, startHarness } from './test/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 100, output: 20 };

function toolTurn(calls: Array<{ name: string; input: Record<string, unknown> }>, text = 'Working on it.') {
  return {
    content: [{ type: 'text' as const, text }, ...calls.map((call) => ({ type: 'tool_call' as const, ...call }))],
    usage,
  };
}

describe('runQuery over HTTP', () => {
  it('runs a tool the model asks for, feeds the result back, and ends with the answer', async () => {
    harness = await startHarness({
      steps: [toolTurn([{ name: 'lookup', input: { key: 'port' } }]), { text: 'The port is 8000.', usage }],
    });
    const lookup = defineTool({
      name: 'lookup',
      description: 'Look a config key up.',
      inputSchema: z.object({ key: z.string() }),
      permission: 'read-only',
      execute: async ({ key }) => textResult(key === 'port' ? '8000' : 'unknown'),
    });
    const store = createMemorySessionStore();
    const { events, outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'What port?' }],
      tools: [lookup],
      toolContext: { root: harness.root, sessionId: 's1' },
      config: { model: 'claude-sonnet-4-6', date: '2026-11-30' },
      session: { store, sessionId: 's1' },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(outcome.text).toBe('The port is 8000.');
    expect(outcome.turns).toBe(2);
    const toolEnd = events.find((event) => event.type === 'tool-end');
    expect(toolEnd?.type === 'tool-end' && toolEnd.result.content).toEqual([{ type: 'text', text: '8000' }]);
    // The second request carries the tool result for the call id of the first answer.
    const second = harness.mock.requests[1]?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(JSON.stringify(second.messages.at(-1))).toContain('"tool_result"');
    expect(JSON.stringify(second.messages.at(-1))).toContain('8000');
    // Stored: user, assistant, tool results, assistant.
    const stored = await store.load('s1');
    expect(stored.map((entry) => entry.message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(outcome.usage.total.calls).toBe(2);
    expect(outcome.usage.total.usage.input.total).toBe(200);
    expect(events.at(-1)).toEqual({ type: 'done', outcome });
  });

  it('runs read-only calls concurrently and write calls one at a time in order, results in the model order', async () => {
    harness = await startHarness({
      steps: [
        toolTurn([
          { name: 'slow_read', input: { id: 1 } },
          { name: 'slow_read', input: { id: 2 } },
          { name: 'write_note', input: { id: 3 } },
          { name: 'write_note', input: { id: 4 } },
          { name: 'slow_read', input: { id: 5 } },
        ]),
        { text: 'done', usage },
      ],
    });
    const log: string[] = [];
    let running = 0;
    let maxRunning = 0;
    const track = async (label: string, ms: number) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      log.push(`start ${label}`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      log.push(`end ${label}`);
      running--;
    };
    const slowRead = defineTool({
      name: 'slow_read',
      description: 'Read slowly.',
      inputSchema: z.object({ id: z.number() }),
      permission: 'read-only',
      execute: async ({ id }) => {
        await track(`read ${id}`, id === 1 ? 60 : 10);
        return textResult(`read ${id}`);
      },
    });
    const writeNote = defineTool({
      name: 'write_note',
      description: 'Write.',
      inputSchema: z.object({ id: z.number() }),
      permission: 'write',
      execute: async ({ id }) => {
        await track(`write ${id}`, 5);
        return textResult(`wrote ${id}`);
      },
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Go' }],
      tools: [slowRead, writeNote],
      toolContext: { root: harness.root, sessionId: 's2' },
      config: { model: 'claude-sonnet-4-6' },
    });
    expect(outcome.reason).toBe('end_turn');
    // The two reads overlapped; the writes did not overlap anything.
    expect(log.slice(0, 2)).toEqual(['start read 1', 'start read 2']);
    expect(log.indexOf('start write 3')).toBeGreaterThan(log.indexOf('end read 1'));
    expect(log.indexOf('start write 4')).toBe(log.indexOf('end write 3') + 1);
    expect(log.indexOf('start read 5')).toBeGreaterThan(log.indexOf('end write 4'));
    expect(maxRunning).toBe(2);
    const results = outcome.messages[2];
    expect(results?.role).toBe('user');
    const texts = ((results?.content ?? []) as Array<{ type: string; content: string }>).map((block) => block.content);
    expect(texts).toEqual(['read 1', 'read 2', 'wrote 3', 'wrote 4', 'read 5']);
  });

  it('answers unknown tools and unusable arguments with error results, one per call', async () => {
    harness = await startHarness({
      steps: [
        {
          content: [
            { type: 'tool_call', name: 'nope', input: {} },
            { type: 'tool_call', name: 'echo', rawArguments: '{"text": ' },
            { type: 'tool_call', name: 'echo', input: { text: 42 } },
          ],
          usage,
        },
        { text: 'ok', usage },
      ],
    });
    const echo = defineTool({
      name: 'echo',
      description: 'Echo.',
      inputSchema: z.object({ text: z.string() }),
      permission: 'read-only',
      execute: async ({ text }) => (text === '' ? errorResult('empty') : textResult(text)),
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Go' }],
      tools: [echo],
      toolContext: { root: harness.root, sessionId: 's3' },
      config: { model: 'claude-sonnet-4-6' },
    });
    const results = outcome.messages[2]?.content as Array<{ isError?: boolean; content: string }>;
    expect(results).toHaveLength(3);
    expect(results.every((block) => block.isError === true)).toBe(true);
    expect(results[0]?.content).toContain('There is no tool named "nope"');
    expect(results[0]?.content).toContain('echo');
    expect(results[1]?.content).toContain('could not be used');
    expect(results[2]?.content).toContain('Invalid input for tool "echo"');
  });
});
