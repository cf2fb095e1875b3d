import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MockErrorKind } from '../script/types.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../test/fixtures.js';
import { openaiResponsesProtocol } from './openai-responses.js';
import { openaiResponsesOutcome } from './openai-responses-items.js';
import type { ParsedRequest, ResolvedTurn, WireEvent } from './protocol.js';

function turn(overrides: Partial<ResolvedTurn> = {}): ResolvedTurn {
  return {
    content: [{ type: 'text', text: 'Hello, world' }],
    stopReason: 'end_turn',
    rawStopReason: undefined,
    usage: { input: 10, output: 20, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    model: 'gpt-test',
    responseId: 'resp_mock000001',
    textDelta: 5,
    argumentsDelta: 8,
    created: 1_700_000_000,
    ...overrides,
  };
}

function request(body: Record<string, unknown> = {}): ParsedRequest {
  return {
    protocol: 'openai-responses',
    method: 'POST',
    path: '/v1/responses',
    query: new URLSearchParams(),
    headers: {},
    body: { model: 'gpt-test', stream: true, ...body },
    rawBody: '{}',
    model: 'gpt-test',
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

describe('openaiResponsesProtocol.matchRoute', () => {
  it('takes POST …/responses with model and stream', () => {
    expect(openaiResponsesProtocol.matchRoute('POST', '/v1/responses', { model: 'gpt-5', stream: true })).toEqual({
      model: 'gpt-5',
      stream: true,
    });
    expect(openaiResponsesProtocol.matchRoute('POST', '/openai/v1/responses', {})).toEqual({
      model: '',
      stream: false,
    });
  });

  it('leaves other routes and methods alone', () => {
    expect(openaiResponsesProtocol.matchRoute('GET', '/v1/responses', undefined)).toBeUndefined();
    expect(openaiResponsesProtocol.matchRoute('POST', '/v1/responses/resp_1/cancel', {})).toBeUndefined();
    expect(openaiResponsesProtocol.matchRoute('POST', '/v1/chat/completions', {})).toBeUndefined();
  });
});

describe('openaiResponsesOutcome', () => {
  it('completes normally and is incomplete for token limits and filtering', () => {
    expect(openaiResponsesOutcome('end_turn')).toEqual({ status: 'completed', incompleteReason: undefined });
    expect(openaiResponsesOutcome('tool_use')).toEqual({ status: 'completed', incompleteReason: undefined });
    expect(openaiResponsesOutcome('max_tokens')).toEqual({
      status: 'incomplete',
      incompleteReason: 'max_output_tokens',
    });
    expect(openaiResponsesOutcome('content_filter')).toEqual({
      status: 'incomplete',
      incompleteReason: 'content_filter',
    });
    expect(openaiResponsesOutcome('refusal')).toEqual({ status: 'incomplete', incompleteReason: 'content_filter' });
  });
});

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

  it('is incomplete at the token limit and sends a raw stop value as the reason', () => {
    const limited = roundTrip(openaiResponsesProtocol.renderResponse(turn({ stopReason: 'max_tokens' }), request()));
    expect([at(limited, 'status'), at(limited, 'incomplete_details')]).toEqual([
      'incomplete',
      { reason: 'max_output_tokens' },
    ]);
    const raw = roundTrip(openaiResponsesProtocol.renderResponse(turn({ rawStopReason: 'weird' }), request()));
    expect(at(raw, 'incomplete_details', 'reason')).toBe('weird');
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
  const table: [MockErrorKind, number, string | null][] = [
    ['rate_limit', 429, 'rate_limit_exceeded'],
    ['quota', 429, 'insufficient_quota'],
    ['overloaded', 503, 'server_is_overloaded'],
    ['context_overflow', 400, 'context_length_exceeded'],
    ['auth', 401, 'invalid_api_key'],
    ['permission', 403, 'unsupported_country_region_territory'],
    ['not_found', 404, 'model_not_found'],
    ['invalid_request', 400, 'missing_required_parameter'],
    ['server', 500, null],
  ];

  it.each(table)('renders %s as %i with code %s', (kind, status, code) => {
    const rendered = openaiResponsesProtocol.renderError({ error: kind }, request());
    expect(rendered.status).toBe(status);
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

  it('keeps alive with an SSE comment and sends x-request-id', () => {
    expect(openaiResponsesProtocol.keepAlive()).toBeUndefined();
    expect(openaiResponsesProtocol.responseHeaders('req_1')).toEqual({ 'x-request-id': 'req_1' });
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
