import { describe, expect, it } from 'vitest';
import { IdSource, resolveTurn } from './resolve.js';
import type { MockTurn } from './types.js';

const toolTurn: MockTurn = {
  text: 'Reading both files.',
  content: [
    { type: 'tool_call', name: 'read', input: { path: 'a.txt' } },
    { type: 'tool_call', name: 'read', input: { path: 'b.txt' } },
  ],
};

function resolve(turn: MockTurn, fault?: Parameters<typeof resolveTurn>[1]['fault']) {
  return resolveTurn(turn, {
    protocol: 'anthropic',
    requestedModel: 'claude-test',
    ids: new IdSource(),
    chunking: { textDelta: 4 },
    fault,
    now: () => 1_700_000_000_000,
  });
}

describe('resolveTurn', () => {
  it('puts the text shortcut first, gives tool calls vendor-style ids and serialises arguments', () => {
    const turn = resolve(toolTurn);
    expect(turn.content[0]).toEqual({ type: 'text', text: 'Reading both files.' });
    const calls = turn.content.filter((block) => block.type === 'tool_call');
    expect(calls.map((call) => call.id)).toEqual(['toolu_mock000001', 'toolu_mock000002']);
    expect(calls[0]?.arguments).toBe('{"path":"a.txt"}');
    expect(turn.stopReason).toBe('tool_use');
    expect(turn.model).toBe('claude-test');
    expect(turn.textDelta).toBe(4);
    expect(turn.argumentsDelta).toBe(24);
    expect(turn.created).toBe(1_700_000_000);
  });

  it('defaults to end_turn without tool calls and estimates output usage', () => {
    const turn = resolve({ text: 'x'.repeat(40), usage: { input: 7, cacheRead: 3 } });
    expect(turn.stopReason).toBe('end_turn');
    expect(turn.usage).toEqual({ input: 7, output: 10, cacheRead: 3, cacheWrite: 0, reasoning: 0 });
  });

  it('breaks tool arguments under malformed_tool_arguments', () => {
    const turn = resolve(toolTurn, { kind: 'malformed_tool_arguments' });
    for (const block of turn.content) {
      if (block.type === 'tool_call') expect(() => JSON.parse(block.arguments)).toThrow();
    }
  });

  it('repeats the first id under duplicate_tool_ids and drops ids under missing_tool_ids', () => {
    const duplicated = resolve(toolTurn, { kind: 'duplicate_tool_ids' }).content.filter(
      (block) => block.type === 'tool_call',
    );
    expect(new Set(duplicated.map((call) => call.id)).size).toBe(1);
    const missing = resolve(toolTurn, { kind: 'missing_tool_ids' }).content.filter(
      (block) => block.type === 'tool_call',
    );
    expect(missing.map((call) => call.id)).toEqual([undefined, undefined]);
  });

  it('keeps rawArguments exactly and honours rawStopReason', () => {
    const turn = resolve({
      content: [{ type: 'tool_call', id: 'given', name: 'x', rawArguments: '{"a":' }],
      rawStopReason: 'model_context_window_exceeded',
    });
    expect(turn.content[0]).toEqual({ type: 'tool_call', id: 'given', name: 'x', arguments: '{"a":' });
    expect(turn.rawStopReason).toBe('model_context_window_exceeded');
  });
});
