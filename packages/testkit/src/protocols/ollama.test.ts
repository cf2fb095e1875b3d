import { describe, expect, it } from 'vitest';
import type { MockErrorKind } from '../script/types.js';
import { mapOllamaDoneReason, ollamaProtocol } from './ollama.js';
import type { ParsedRequest, ResolvedTurn } from './protocol.js';

function turn(overrides: Partial<ResolvedTurn> = {}): ResolvedTurn {
  return {
    content: [{ type: 'text', text: 'Hello, world' }],
    stopReason: 'end_turn',
    rawStopReason: undefined,
    usage: { input: 26, output: 298, cacheRead: 4, cacheWrite: 0, reasoning: 0 },
    model: 'llama3.2',
    responseId: 'ollama-1',
    textDelta: 5,
    argumentsDelta: 8,
    created: 1_700_000_000,
    ...overrides,
  };
}

const request: ParsedRequest = {
  protocol: 'ollama',
  method: 'POST',
  path: '/api/chat',
  query: new URLSearchParams(),
  headers: {},
  body: { model: 'llama3.2' },
  rawBody: '{}',
  model: 'llama3.2',
  stream: true,
  includeUsage: false,
};

/** Walk parsed JSON by keys and indexes; undefined where the path does not exist. */
function at(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}
const parse = (text: string): unknown => JSON.parse(text);

describe('ollamaProtocol.matchRoute', () => {
  it('streams unless the body says stream: false', () => {
    expect(ollamaProtocol.matchRoute('POST', '/api/chat', { model: 'llama3.2' })).toEqual({
      model: 'llama3.2',
      stream: true,
    });
    expect(ollamaProtocol.matchRoute('POST', '/ollama/api/chat', { model: 'qwen3', stream: false })).toEqual({
      model: 'qwen3',
      stream: false,
    });
    expect(ollamaProtocol.matchRoute('POST', '/api/chat', undefined)).toEqual({ model: '', stream: true });
  });

  it('ignores other routes', () => {
    expect(ollamaProtocol.matchRoute('POST', '/api/generate', {})).toBeUndefined();
    expect(ollamaProtocol.matchRoute('GET', '/api/chat', {})).toBeUndefined();
    expect(ollamaProtocol.matchRoute('POST', '/v1/chat/completions', {})).toBeUndefined();
  });
});

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

  it('reports length for max_tokens and sends a raw reason verbatim', () => {
    expect(mapOllamaDoneReason('max_tokens')).toBe('length');
    expect(mapOllamaDoneReason('tool_use')).toBe('stop');
    expect(at(ollamaProtocol.renderResponse(turn({ stopReason: 'max_tokens' }), request), 'done_reason')).toBe(
      'length',
    );
    expect(at(ollamaProtocol.renderResponse(turn({ rawStopReason: 'unload' }), request), 'done_reason')).toBe('unload');
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
  it('gives every kind its status and an error string', () => {
    const expected: Record<MockErrorKind, number> = {
      rate_limit: 429,
      quota: 429,
      overloaded: 503,
      context_overflow: 400,
      auth: 401,
      permission: 403,
      not_found: 404,
      invalid_request: 400,
      server: 500,
    };
    for (const [kind, status] of Object.entries(expected) as [MockErrorKind, number][]) {
      const response = ollamaProtocol.renderError({ error: kind }, request);
      expect(response.status).toBe(status);
      expect(typeof at(parse(response.body), 'error')).toBe('string');
    }
    const message = (error: MockErrorKind): unknown =>
      at(parse(ollamaProtocol.renderError({ error }, request).body), 'error');
    expect(message('not_found')).toBe("model 'llama3.2' not found");
    expect(message('rate_limit')).toContain('session usage limit');
    expect(message('quota')).toContain('weekly usage limit');
    expect(message('context_overflow')).toBe('the input length exceeds the context length');
  });

  it('honours status, message and retry-after', () => {
    const response = ollamaProtocol.renderError(
      { error: 'overloaded', status: 502, message: 'cloud model unreachable', retryAfterSeconds: 2 },
      request,
    );
    expect([response.status, response.headers['retry-after'], parse(response.body)]).toEqual([
      502,
      '2',
      { error: 'cloud model unreachable' },
    ]);
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
