import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MockErrorKind } from '../script/types.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../test/fixtures.js';
import { anthropicProtocol, anthropicStopReason } from './anthropic.js';
import type { ParsedRequest, ResolvedTurn, WireEvent } from './protocol.js';

function turn(overrides: Partial<ResolvedTurn> = {}): ResolvedTurn {
  return {
    content: [{ type: 'text', text: 'Hello, world' }],
    stopReason: 'end_turn',
    rawStopReason: undefined,
    usage: { input: 10, output: 20, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    model: 'claude-test',
    responseId: 'msg_mock000001',
    textDelta: 5,
    argumentsDelta: 8,
    created: 1_700_000_000,
    ...overrides,
  };
}

function request(body: Record<string, unknown> = {}): ParsedRequest {
  return {
    protocol: 'anthropic',
    method: 'POST',
    path: '/v1/messages',
    query: new URLSearchParams(),
    headers: {},
    body: { model: 'claude-test', stream: true, ...body },
    rawBody: '{}',
    model: 'claude-test',
    stream: true,
    includeUsage: false,
  };
}

/** Walk parsed JSON by keys and indexes; undefined where the path does not exist. */
function at(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}
const payloads = (events: WireEvent[]): unknown[] => events.map((event) => JSON.parse(event.data));
const types = (events: WireEvent[]): unknown[] => payloads(events).map((payload) => at(payload, 'type'));
const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** Rebuild the content blocks a client would assemble from the stream's deltas. */
function assemble(events: WireEvent[]): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  const json: string[] = [];
  for (const payload of payloads(events)) {
    const index = Number(at(payload, 'index'));
    if (at(payload, 'type') === 'content_block_start') {
      blocks[index] = { ...(at(payload, 'content_block') as Record<string, unknown>) };
      json[index] = '';
    }
    if (at(payload, 'type') !== 'content_block_delta') continue;
    const block = blocks[index] ?? {};
    const delta = at(payload, 'delta');
    if (at(delta, 'type') === 'text_delta') block.text = `${block.text}${at(delta, 'text')}`;
    if (at(delta, 'type') === 'thinking_delta') block.thinking = `${block.thinking}${at(delta, 'thinking')}`;
    if (at(delta, 'type') === 'signature_delta') block.signature = at(delta, 'signature');
    if (at(delta, 'type') === 'input_json_delta') json[index] = `${json[index]}${at(delta, 'partial_json')}`;
  }
  return blocks.map((block, index) => (block.type === 'tool_use' ? { ...block, json: json[index] } : block));
}

describe('anthropicProtocol.matchRoute', () => {
  it('takes POST …/v1/messages with model and stream from the body', () => {
    expect(anthropicProtocol.matchRoute('POST', '/v1/messages', { model: 'claude-x', stream: true })).toEqual({
      model: 'claude-x',
      stream: true,
    });
    expect(anthropicProtocol.matchRoute('POST', '/proxy/anthropic/v1/messages', { model: 'm' })).toEqual({
      model: 'm',
      stream: false,
    });
    expect(anthropicProtocol.matchRoute('POST', '/v1/messages', { model: 42, stream: 'yes' })).toEqual({
      model: '',
      stream: false,
    });
  });

  it('leaves other routes and methods alone', () => {
    expect(anthropicProtocol.matchRoute('GET', '/v1/messages', undefined)).toBeUndefined();
    expect(anthropicProtocol.matchRoute('POST', '/v1/messages/count_tokens', {})).toBeUndefined();
    expect(anthropicProtocol.matchRoute('POST', '/v1/chat/completions', {})).toBeUndefined();
  });
});

describe('anthropicStopReason', () => {
  it('maps neutral stop reasons to Messages API values', () => {
    expect(anthropicStopReason('end_turn')).toBe('end_turn');
    expect(anthropicStopReason('tool_use')).toBe('tool_use');
    expect(anthropicStopReason('max_tokens')).toBe('max_tokens');
    expect(anthropicStopReason('stop_sequence')).toBe('stop_sequence');
    expect(anthropicStopReason('pause_turn')).toBe('pause_turn');
    expect(anthropicStopReason('refusal')).toBe('refusal');
    expect(anthropicStopReason('content_filter')).toBe('refusal');
  });
});

const everyBlock = turn({
  content: [
    { type: 'thinking', thinking: 'Let me think.', signature: 'sig-123' },
    { type: 'redacted_thinking', data: 'opaque' },
    { type: 'text', text: 'Reading the file now.' },
    { type: 'tool_call', id: 'toolu_1', name: 'read', arguments: '{"path":"a.txt"}' },
  ],
  stopReason: 'tool_use',
  usage: { input: 119, output: 40, cacheRead: 100, cacheWrite: 7, reasoning: 5 },
});

describe('anthropicProtocol.renderResponse', () => {
  it('renders every block kind, the stop reason and usage with cache counts', () => {
    expect(roundTrip(anthropicProtocol.renderResponse(everyBlock, request()))).toEqual({
      id: 'msg_mock000001',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [
        { type: 'thinking', thinking: 'Let me think.', signature: 'sig-123' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'text', text: 'Reading the file now.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.txt' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      stop_details: null,
      usage: {
        input_tokens: 12,
        cache_creation_input_tokens: 7,
        cache_read_input_tokens: 100,
        cache_creation: { ephemeral_5m_input_tokens: 7, ephemeral_1h_input_tokens: 0 },
        output_tokens: 40,
        output_tokens_details: { thinking_tokens: 5 },
        service_tier: 'standard',
      },
    });
  });

  it('sends a raw stop reason verbatim and names the stop sequence from the request', () => {
    const raw = roundTrip(
      anthropicProtocol.renderResponse(turn({ rawStopReason: 'model_context_window_exceeded' }), request()),
    );
    expect(at(raw, 'stop_reason')).toBe('model_context_window_exceeded');
    const stopped = roundTrip(
      anthropicProtocol.renderResponse(turn({ stopReason: 'stop_sequence' }), request({ stop_sequences: ['END'] })),
    );
    expect([at(stopped, 'stop_reason'), at(stopped, 'stop_sequence')]).toEqual(['stop_sequence', 'END']);
    const refused = roundTrip(anthropicProtocol.renderResponse(turn({ stopReason: 'content_filter' }), request()));
    expect(at(refused, 'stop_reason')).toBe('refusal');
    expect(at(refused, 'stop_details', 'type')).toBe('refusal');
  });

  it('renders a call without an id and keeps malformed arguments visible', () => {
    const body = roundTrip(
      anthropicProtocol.renderResponse(
        turn({ content: [{ type: 'tool_call', id: undefined, name: 'read', arguments: '{"path":"a' }] }),
        request(),
      ),
    );
    expect(at(body, 'content', 0)).toEqual({ type: 'tool_use', name: 'read', input: '{"path":"a' });
  });
});

describe('anthropicProtocol.renderStream', () => {
  const events = anthropicProtocol.renderStream(everyBlock, request());

  it('names each event after its payload type, in the documented order', () => {
    for (const event of events) expect(event.event).toBe(at(JSON.parse(event.data), 'type'));
    const names = types(events);
    expect(names.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(names.filter((name) => name === 'content_block_start')).toHaveLength(4);
    expect(names.filter((name) => name === 'content_block_stop')).toHaveLength(4);
    expect(events.filter((event) => event.terminal).map((event) => event.event)).toEqual([
      'message_delta',
      'message_stop',
    ]);
  });

  it('starts the message empty with the input usage and the first output token', () => {
    const start = JSON.parse(events[0]?.data ?? '{}');
    expect(at(start, 'message', 'content')).toEqual([]);
    expect(at(start, 'message', 'stop_reason')).toBeNull();
    expect(at(start, 'message', 'usage', 'input_tokens')).toBe(12);
    expect(at(start, 'message', 'usage', 'cache_read_input_tokens')).toBe(100);
    expect(at(start, 'message', 'usage', 'output_tokens')).toBe(1);
  });

  it('streams deltas that rebuild every block', () => {
    expect(assemble(events)).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: 'sig-123' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'Reading the file now.' },
      { type: 'tool_use', id: 'toolu_1', name: 'read', input: {}, json: '{"path":"a.txt"}' },
    ]);
  });

  it('cuts text and arguments into the configured sizes', () => {
    const deltas = payloads(events).filter((payload) => at(payload, 'type') === 'content_block_delta');
    const texts = deltas.filter((payload) => at(payload, 'delta', 'type') === 'text_delta');
    expect(texts.map((payload) => at(payload, 'delta', 'text'))).toEqual(['Readi', 'ng th', 'e fil', 'e now', '.']);
    const json = deltas.filter((payload) => at(payload, 'delta', 'type') === 'input_json_delta');
    expect(json.map((payload) => at(payload, 'delta', 'partial_json'))).toEqual(['', '{"path":', '"a.txt"}']);
  });

  it('ends with the stop reason and cumulative usage', () => {
    const delta = payloads(events).at(-2);
    expect(at(delta, 'delta')).toEqual({ stop_reason: 'tool_use', stop_sequence: null, stop_details: null });
    expect(at(delta, 'usage')).toEqual({
      input_tokens: 12,
      cache_creation_input_tokens: 7,
      cache_read_input_tokens: 100,
      output_tokens: 40,
      output_tokens_details: { thinking_tokens: 5 },
    });
  });

  it('streams a call without an id or arguments as the API does', () => {
    const stream = anthropicProtocol.renderStream(
      turn({ content: [{ type: 'tool_call', id: undefined, name: 'list', arguments: '{}' }], stopReason: 'tool_use' }),
      request(),
    );
    expect(assemble(stream)).toEqual([{ type: 'tool_use', name: 'list', input: {}, json: '' }]);
    expect(JSON.parse(stream[1]?.data ?? '{}')).not.toHaveProperty('content_block.id');
  });

  it('still pings when the message has no content', () => {
    expect(types(anthropicProtocol.renderStream(turn({ content: [] }), request()))).toEqual([
      'message_start',
      'ping',
      'message_delta',
      'message_stop',
    ]);
  });
});

describe('anthropicProtocol.renderError', () => {
  const table: [MockErrorKind, number, string][] = [
    ['rate_limit', 429, 'rate_limit_error'],
    ['overloaded', 529, 'overloaded_error'],
    ['quota', 400, 'invalid_request_error'],
    ['context_overflow', 400, 'invalid_request_error'],
    ['auth', 401, 'authentication_error'],
    ['permission', 403, 'permission_error'],
    ['not_found', 404, 'not_found_error'],
    ['invalid_request', 400, 'invalid_request_error'],
    ['server', 500, 'api_error'],
  ];

  it.each(table)('renders %s as %i %s with a matching request id', (kind, status, type) => {
    const rendered = anthropicProtocol.renderError({ error: kind }, request());
    const body = JSON.parse(rendered.body);
    expect(rendered.status).toBe(status);
    expect(at(body, 'type')).toBe('error');
    expect(at(body, 'error', 'type')).toBe(type);
    expect(String(at(body, 'error', 'message')).length).toBeGreaterThan(0);
    expect(at(body, 'request_id')).toBe(rendered.headers['request-id']);
    expect(String(rendered.headers['request-id'])).toMatch(/^req_/);
  });

  it('uses the vendor wording for quota and context overflow', () => {
    const quota = JSON.parse(anthropicProtocol.renderError({ error: 'quota' }, request()).body);
    expect(at(quota, 'error', 'message')).toMatch(/^Your credit balance is too low to access the Anthropic API/);
    const overflow = anthropicProtocol.renderError(
      { error: 'context_overflow', requestedTokens: 210_000, limitTokens: 200_000 },
      request(),
    );
    expect(at(JSON.parse(overflow.body), 'error', 'message')).toBe(
      'prompt is too long: 210000 tokens > 200000 maximum',
    );
  });

  it('honours status, message and retry-after overrides', () => {
    const rendered = anthropicProtocol.renderError(
      { error: 'overloaded', status: 503, message: 'busy', retryAfterSeconds: 7 },
      undefined,
    );
    expect(rendered.status).toBe(503);
    expect(rendered.headers['retry-after']).toBe('7');
    expect(at(JSON.parse(rendered.body), 'error')).toEqual({ type: 'overloaded_error', message: 'busy' });
  });
});

describe('anthropicProtocol stream extras', () => {
  it('renders the in-stream error event', () => {
    expect(anthropicProtocol.renderStreamError({ error: 'overloaded' }, request())).toEqual({
      event: 'error',
      data: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    });
  });

  it('pings to keep alive and sends the request id header', () => {
    expect(anthropicProtocol.keepAlive()).toEqual({ event: 'ping', data: '{"type":"ping"}' });
    expect(anthropicProtocol.responseHeaders('req_1')).toEqual({ 'request-id': 'req_1' });
  });

  it('replays lines with event names from their type and flags the closing events', () => {
    const events = anthropicProtocol.replayStream(['{"type":"message_start"}', '', '{"type":"message_stop"}']);
    expect(events).toEqual([
      { event: 'message_start', data: '{"type":"message_start"}' },
      { event: 'message_stop', data: '{"type":"message_stop"}', terminal: true },
    ]);
  });

  it('still names a damaged recorded line after its leading type field', () => {
    expect(anthropicProtocol.replayStream(['{"type":"message_delta","delta":{', 'not json'])).toEqual([
      { event: 'message_delta', data: '{"type":"message_delta","delta":{', terminal: true },
      { data: 'not json' },
    ]);
  });
});

describe.skipIf(!providerStreamsDir)(`anthropicProtocol with recorded streams (${fixturesSkipReason})`, () => {
  const lines = (name: string) => readFileSync(fixture(`anthropic-messages/${name}`), 'utf8').split('\n');

  it('replays a recorded tool stream unchanged, with named events', () => {
    const recorded = lines('anthropic-json-tool.1.chunks.txt').filter((line) => line.trim() !== '');
    const events = anthropicProtocol.replayStream(recorded);
    expect(events.map((event) => event.data)).toEqual(recorded);
    expect(events.map((event) => event.event)).toEqual(types(events));
    expect(events.filter((event) => event.terminal).map((event) => event.event)).toEqual([
      'message_delta',
      'message_stop',
    ]);
  });

  it('renders the same event sequence as a recording of the same content', () => {
    const recorded = anthropicProtocol.replayStream(lines('anthropic-clear-thinking.1.chunks.txt'));
    const rendered = anthropicProtocol.renderStream(
      turn({
        content: [
          { type: 'thinking', thinking: 'The previous result was 925.', signature: 'sig' },
          { type: 'text', text: '925 ÷ 5 = 185' },
        ],
        textDelta: 1000,
      }),
      request(),
    );
    const shape = (events: WireEvent[]) =>
      payloads(events)
        .filter((payload) => at(payload, 'type') !== 'ping')
        .map(
          (payload) =>
            `${at(payload, 'type')}:${at(payload, 'delta', 'type') ?? at(payload, 'content_block', 'type') ?? ''}`,
        );
    const dedupe = (list: string[]) => list.filter((item, index) => item !== list[index - 1]);
    expect(dedupe(shape(rendered))).toEqual(dedupe(shape(recorded)));
  });
});
