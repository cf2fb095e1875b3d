import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MockErrorKind } from '../script/types.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../test/fixtures.js';
import { anthropicProtocol } from './anthropic.js';
import type { ParsedRequest, WireEvent } from './protocol.js';
import { at, CONTRACTS, renderErrorOverride, roundTrip } from './protocol.test-support.js';

const contract = CONTRACTS.anthropic;
const turn = contract.turn;
const request = (body: Record<string, unknown> = {}): ParsedRequest =>
  contract.request({ body: { model: 'claude-test', stream: true, ...body } });
const payloads = (events: WireEvent[]): unknown[] => events.map((event) => JSON.parse(event.data));
const types = (events: WireEvent[]): unknown[] => payloads(events).map((payload) => at(payload, 'type'));

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

  it('names the stop sequence from the request and details a refusal', () => {
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
  // Statuses per kind are checked for every protocol in protocol-contract.test.ts.
  const table: [MockErrorKind, string][] = [
    ['rate_limit', 'rate_limit_error'],
    ['overloaded', 'overloaded_error'],
    ['quota', 'invalid_request_error'],
    ['context_overflow', 'invalid_request_error'],
    ['auth', 'authentication_error'],
    ['permission', 'permission_error'],
    ['not_found', 'not_found_error'],
    ['invalid_request', 'invalid_request_error'],
    ['server', 'api_error'],
  ];

  it.each(table)('renders %s as %s with a matching request id', (kind, type) => {
    const rendered = anthropicProtocol.renderError({ error: kind }, request());
    const body = JSON.parse(rendered.body);
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

  it('keeps the error type beside an overridden message', () => {
    // Status, message and retry-after overrides are checked in protocol-contract.test.ts.
    const rendered = renderErrorOverride(contract);
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
