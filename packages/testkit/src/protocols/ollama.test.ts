import { describe, expect, it } from 'vitest';
import type { MockErrorKind } from '../script/types.js';
import { ollamaProtocol } from './ollama.js';
import { at, CONTRACTS, parse, renderErrorOverride } from './protocol.test-support.js';

const contract = CONTRACTS.ollama;
const turn = contract.turn;
const request = contract.request();

describe('ollamaProtocol.renderResponse', () => {
  it('renders content, thinking and tool calls with object arguments', () => {
    const body = ollamaProtocol.renderResponse(
      turn({
        content: [
          { type: 'thinking', thinking: 'Weather question.', signature: 'dropped' },
          { type: 'redacted_thinking', data: 'dropped' },
          { type: 'text', text: 'Checking.' },
          { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Toronto"}' },
          { type: 'tool_call', id: undefined, name: 'get_time', arguments: '{"tz":"' },
        ],
        stopReason: 'tool_use',
      }),
      request,
    );
    expect(at(body, 'message')).toEqual({
      role: 'assistant',
      content: 'Checking.',
      thinking: 'Weather question.',
      tool_calls: [
        { id: 'call_1', function: { index: 0, name: 'get_weather', arguments: { city: 'Toronto' } } },
        { function: { index: 1, name: 'get_time', arguments: '{"tz":"' } },
      ],
    });
    expect(body).toMatchObject({
      model: 'llama3.2',
      created_at: '2023-11-14T22:13:20.000Z',
      done: true,
      done_reason: 'stop',
      prompt_eval_count: 22,
      eval_count: 298,
    });
    expect(at(body, 'total_duration')).toBeGreaterThan(0);
  });
});

describe('ollamaProtocol.renderStream', () => {
  const events = ollamaProtocol.renderStream(
    turn({
      content: [
        { type: 'thinking', thinking: 'Let me see', signature: undefined },
        { type: 'text', text: 'Hello, world' },
        { type: 'tool_call', id: 'call_7', name: 'lookup', arguments: '{"q":"x"}' },
      ],
      stopReason: 'tool_use',
    }),
    request,
  );
  const lines = events.map((event) => parse(event.data));

  it('streams thinking and content pieces, then each tool call whole', () => {
    expect(lines.map((payload) => at(payload, 'message', 'thinking')).filter(Boolean)).toEqual(['Let m', 'e see']);
    expect(lines.map((payload) => at(payload, 'message', 'content')).join('')).toBe('Hello, world');
    expect(lines.map((payload) => at(payload, 'message', 'tool_calls')).filter(Boolean)).toEqual([
      [{ id: 'call_7', function: { index: 0, name: 'lookup', arguments: { q: 'x' } } }],
    ]);
    expect(lines.every((payload) => at(payload, 'message', 'role') === 'assistant')).toBe(true);
    expect(events.every((event) => event.event === undefined && !event.data.includes('\n'))).toBe(true);
  });

  it('ends with the one done line, carrying counts', () => {
    expect(lines.map((payload) => at(payload, 'done'))).toEqual([false, false, false, false, false, false, true]);
    expect(events.map((event) => event.terminal === true)).toEqual([false, false, false, false, false, false, true]);
    expect(lines.at(-1)).toMatchObject({ done_reason: 'stop', prompt_eval_count: 22, eval_count: 298 });
  });
});

describe('ollamaProtocol.renderError', () => {
  it('gives every kind an error string in the vendor wording', () => {
    // The status per kind, and that the error is a string, are checked for every protocol in
    // protocol-contract.test.ts.
    const message = (error: MockErrorKind): unknown =>
      at(parse(ollamaProtocol.renderError({ error }, request).body), 'error');
    expect(message('not_found')).toBe("model 'llama3.2' not found");
    expect(message('rate_limit')).toContain('session usage limit');
    expect(message('quota')).toContain('weekly usage limit');
    expect(message('context_overflow')).toBe('the input length exceeds the context length');
  });

  it('sends an overridden message as the whole body', () => {
    // Status, message and retry-after overrides are checked for every protocol in protocol-contract.test.ts.
    expect(parse(renderErrorOverride(contract).body)).toEqual({ error: 'cloud model unreachable' });
  });

  it('sends an in-stream error as a bare {error} line', () => {
    expect(parse(ollamaProtocol.renderStreamError({ error: 'server' }, request).data)).toEqual({
      error: 'an error was encountered while running the model',
    });
  });
});

describe('ollamaProtocol.replayStream', () => {
  it('passes lines through and marks the done line terminal', () => {
    const recorded = [
      '{"model":"llama3.2","created_at":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":"Hi"},"done":false}',
      '{"model":"llama3.2","created_at":"2025-01-01T00:00:01Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}',
    ];
    expect(ollamaProtocol.replayStream(recorded)).toEqual([
      { data: recorded[0] },
      { data: recorded[1], terminal: true },
    ]);
  });
});
