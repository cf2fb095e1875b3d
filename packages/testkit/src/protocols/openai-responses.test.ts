import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MockErrorKind } from '../script/types.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../test/fixtures.js';
import { openaiResponsesProtocol } from './openai-responses.js';
import type { ParsedRequest, WireEvent } from './protocol.js';
import { at, CONTRACTS, roundTrip } from './protocol.test-support.js';

const contract = CONTRACTS['openai-responses'];
const turn = contract.turn;
const request = (body: Record<string, unknown> = {}): ParsedRequest =>
  contract.request({ body: { model: 'gpt-test', stream: true, ...body } });
const payloads = (events: WireEvent[]): unknown[] => events.map((event) => JSON.parse(event.data));
const types = (events: WireEvent[]): unknown[] => payloads(events).map((payload) => at(payload, 'type'));

const everyBlock = turn({
  content: [
    { type: 'thinking', thinking: 'Let me think.', signature: 'enc-123' },
    { type: 'redacted_thinking', data: 'opaque' },
    { type: 'text', text: 'Reading it.' },
    { type: 'tool_call', id: 'call_1', name: 'read', arguments: '{"path":"a.txt"}' },
  ],
  stopReason: 'tool_use',
  usage: { input: 115, output: 40, cacheRead: 100, cacheWrite: 3, reasoning: 5 },
});

const expectedOutput = [
  {
    id: 'rs_mock000001_0',
    type: 'reasoning',
    summary: [{ type: 'summary_text', text: 'Let me think.' }],
    encrypted_content: 'enc-123',
  },
  {
    id: 'msg_mock000001_2',
    type: 'message',
    status: 'completed',
    content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Reading it.' }],
    role: 'assistant',
  },
  {
    id: 'fc_mock000001_3',
    type: 'function_call',
    status: 'completed',
    arguments: '{"path":"a.txt"}',
    call_id: 'call_1',
    name: 'read',
  },
];

const expectedUsage = {
  input_tokens: 115,
  input_tokens_details: { cached_tokens: 100, cache_write_tokens: 3 },
  output_tokens: 40,
  output_tokens_details: { reasoning_tokens: 5 },
  total_tokens: 155,
};

describe('openaiResponsesProtocol.renderResponse', () => {
  it('renders reasoning, message and function_call items with usage', () => {
    const body = roundTrip(openaiResponsesProtocol.renderResponse(everyBlock, request({ instructions: 'Be brief.' })));
    expect(body).toMatchObject({
      id: 'resp_mock000001',
      object: 'response',
      created_at: 1_700_000_000,
      status: 'completed',
      error: null,
      incomplete_details: null,
      instructions: 'Be brief.',
      model: 'gpt-test',
      usage: expectedUsage,
    });
    expect(at(body, 'output')).toEqual(expectedOutput);
  });

  it('is incomplete at the token limit with the reason as an object', () => {
    const limited = roundTrip(openaiResponsesProtocol.renderResponse(turn({ stopReason: 'max_tokens' }), request()));
    expect([at(limited, 'status'), at(limited, 'incomplete_details')]).toEqual([
      'incomplete',
      { reason: 'max_output_tokens' },
    ]);
  });

  it('leaves out call_id for a call without an id, and encrypted_content without a signature', () => {
    const body = roundTrip(
      openaiResponsesProtocol.renderResponse(
        turn({
          content: [
            { type: 'thinking', thinking: 'hm', signature: undefined },
            { type: 'tool_call', id: undefined, name: 'ls', arguments: '{}' },
          ],
        }),
        request(),
      ),
    );
    expect(at(body, 'output', 0)).not.toHaveProperty('encrypted_content');
    expect(at(body, 'output', 1)).not.toHaveProperty('call_id');
  });
});

describe('openaiResponsesProtocol.renderStream', () => {
  const events = openaiResponsesProtocol.renderStream(everyBlock, request());

  it('names events by type and numbers them in order', () => {
    for (const event of events) expect(event.event).toBe(at(JSON.parse(event.data), 'type'));
    expect(payloads(events).map((payload) => at(payload, 'sequence_number'))).toEqual(events.map((_, index) => index));
    expect(events.filter((event) => event.terminal).map((event) => event.event)).toEqual(['response.completed']);
  });

  it('walks each item through its documented lifecycle', () => {
    const collapse = (list: unknown[]) => list.filter((item, index) => item !== list[index - 1]);
    expect(collapse(types(events))).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
  });

  it('starts in progress with no output and ends with the full response', () => {
    const all = payloads(events);
    expect(at(all[0], 'response', 'status')).toBe('in_progress');
    expect(at(all[0], 'response', 'output')).toEqual([]);
    expect(at(all[0], 'response', 'usage')).toBeNull();
    expect(at(all.at(-1), 'response', 'output')).toEqual(expectedOutput);
    expect(at(all.at(-1), 'response', 'usage')).toEqual(expectedUsage);
  });

  it('cuts text, summary and arguments into deltas that rebuild them', () => {
    const all = payloads(events);
    const join = (type: string) =>
      all
        .filter((payload) => at(payload, 'type') === type)
        .map((payload) => at(payload, 'delta'))
        .join('|');
    expect(join('response.output_text.delta')).toBe('Readi|ng it|.');
    expect(join('response.reasoning_summary_text.delta')).toBe('Let m|e thi|nk.');
    expect(join('response.function_call_arguments.delta')).toBe('{"path":|"a.txt"}');
    const added = all.find(
      (payload) =>
        at(payload, 'type') === 'response.output_item.added' && at(payload, 'item', 'type') === 'function_call',
    );
    expect(at(added, 'item')).toEqual({
      id: 'fc_mock000001_3',
      type: 'function_call',
      status: 'in_progress',
      arguments: '',
      call_id: 'call_1',
      name: 'read',
    });
  });

  it('closes an incomplete response with response.incomplete', () => {
    const stream = openaiResponsesProtocol.renderStream(turn({ stopReason: 'max_tokens' }), request());
    expect(stream.at(-1)?.event).toBe('response.incomplete');
    expect(stream.at(-1)?.terminal).toBe(true);
    expect(at(JSON.parse(stream.at(-1)?.data ?? '{}'), 'response', 'incomplete_details')).toEqual({
      reason: 'max_output_tokens',
    });
  });
});

describe('openaiResponsesProtocol errors', () => {
  // Statuses per kind are checked for every protocol in protocol-contract.test.ts.
  const table: [MockErrorKind, string | null][] = [
    ['rate_limit', 'rate_limit_exceeded'],
    ['quota', 'insufficient_quota'],
    ['overloaded', 'server_is_overloaded'],
    ['context_overflow', 'context_length_exceeded'],
    ['auth', 'invalid_api_key'],
    ['permission', 'unsupported_country_region_territory'],
    ['not_found', 'model_not_found'],
    ['invalid_request', 'missing_required_parameter'],
    ['server', null],
  ];

  it.each(table)('renders %s with code %s', (kind, code) => {
    const rendered = openaiResponsesProtocol.renderError({ error: kind }, request());
    expect(at(JSON.parse(rendered.body), 'error', 'code')).toBe(code);
  });

  it('words a context overflow as the Responses API does, on param input', () => {
    const rendered = openaiResponsesProtocol.renderError({ error: 'context_overflow' }, request());
    expect(at(JSON.parse(rendered.body), 'error')).toMatchObject({
      param: 'input',
      message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
    });
  });

  it('fails a started stream with the error event, numbered after the events sent', () => {
    const event = openaiResponsesProtocol.renderStreamError({ error: 'rate_limit' }, request(), { eventsSent: 4 });
    const payload = JSON.parse(event.data);
    expect(event.event).toBe('error');
    expect(Object.keys(payload)).toEqual(['type', 'code', 'message', 'param', 'sequence_number']);
    expect(payload).toMatchObject({ type: 'error', code: 'rate_limit_exceeded', param: null, sequence_number: 4 });
    expect(String(payload.message)).toMatch(/^Rate limit reached for gpt-test/);
  });

  it('renders the same error event every time when the server gives no position', () => {
    const first = openaiResponsesProtocol.renderStreamError({ error: 'server', message: 'x' }, request());
    expect(JSON.parse(first.data)).toEqual({ type: 'error', code: 'server_error', message: 'x', param: null });
    expect(openaiResponsesProtocol.renderStreamError({ error: 'server', message: 'x' }, request())).toEqual(first);
  });
});

describe.skipIf(!providerStreamsDir)(`openaiResponsesProtocol with recorded streams (${fixturesSkipReason})`, () => {
  const lines = (name: string) => readFileSync(fixture(`openai-responses/${name}`), 'utf8').split('\n');

  it('replays events named by type and flags response.completed as closing', () => {
    const recorded = lines('openai-custom-tool.1.chunks.txt').filter((line) => line.trim() !== '');
    const events = openaiResponsesProtocol.replayStream(recorded);
    expect(events.map((event) => event.data)).toEqual(recorded);
    expect(events.map((event) => event.event)).toEqual(types(events));
    expect(events.filter((event) => event.terminal).map((event) => event.event)).toEqual(['response.completed']);
  });

  it('still names the events of a recording whose lines are not all valid JSON', () => {
    // parallel-tool-call-wrapper.1 lacks a closing brace on its response.created and response.completed lines.
    const events = openaiResponsesProtocol.replayStream(lines('parallel-tool-call-wrapper.1.chunks.txt'));
    expect(events.map((event) => event.event)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.at(-1)?.terminal).toBe(true);
  });

  it('renders the same item lifecycle as the recorded reasoning stream', () => {
    const recorded = types(
      openaiResponsesProtocol.replayStream(lines('openai-reasoning-encrypted-content.1.chunks.txt')),
    );
    const firstResponse = recorded.slice(0, recorded.indexOf('response.completed') + 1);
    const rendered = types(
      openaiResponsesProtocol.renderStream(
        turn({
          content: [
            { type: 'thinking', thinking: 'Calculating step by step.', signature: 'enc' },
            { type: 'tool_call', id: 'call_1', name: 'calculator', arguments: '{"a":12,"b":7,"op":"add"}' },
          ],
          stopReason: 'tool_use',
        }),
        request(),
      ),
    );
    const collapse = (list: unknown[]) => list.filter((item, index) => item !== list[index - 1]);
    expect(collapse(rendered)).toEqual(collapse(firstResponse));
  });
});
