import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MockErrorKind } from '../script/types.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../test/fixtures.js';
import { openaiChatProtocol } from './openai-chat.js';
import type { WireEvent } from './protocol.js';
import { at, CONTRACTS, renderErrorOverride, roundTrip } from './protocol.test-support.js';

const contract = CONTRACTS['openai-chat'];
const turn = contract.turn;
const request = contract.request;
const chunks = (events: WireEvent[]): unknown[] =>
  events.filter((event) => event.data !== '[DONE]').map((event) => JSON.parse(event.data));
const deltas = (events: WireEvent[]): unknown[] => chunks(events).map((chunk) => at(chunk, 'choices', 0, 'delta'));

/** Rebuild the message a client assembles from the chunks, tool calls by index. */
function assemble(events: WireEvent[]) {
  let content = '';
  let reasoning = '';
  const calls: { id?: unknown; name?: unknown; arguments: string }[] = [];
  for (const delta of deltas(events)) {
    if (typeof at(delta, 'content') === 'string') content += at(delta, 'content');
    if (typeof at(delta, 'reasoning_content') === 'string') reasoning += at(delta, 'reasoning_content');
    const toolCalls = at(delta, 'tool_calls');
    for (const call of Array.isArray(toolCalls) ? toolCalls : []) {
      const index = Number(at(call, 'index'));
      const current = calls[index] ?? { arguments: '' };
      if (at(call, 'id') !== undefined) current.id = at(call, 'id');
      if (at(call, 'function', 'name') !== undefined) current.name = at(call, 'function', 'name');
      current.arguments += String(at(call, 'function', 'arguments') ?? '');
      calls[index] = current;
    }
  }
  return { content, reasoning, calls };
}

describe('openaiChatProtocol.matchRoute', () => {
  it('names the Azure deployment as the model when the body has none', () => {
    expect(openaiChatProtocol.matchRoute('POST', '/openai/deployments/my%20gpt/chat/completions', {})).toEqual({
      model: 'my gpt',
      stream: false,
      includeUsage: false,
    });
    expect(
      openaiChatProtocol.matchRoute('POST', '/openai/deployments/dep/chat/completions', { model: 'gpt-4o-mini' }),
    ).toMatchObject({ model: 'gpt-4o-mini' });
  });
});

const everyBlock = turn({
  content: [
    { type: 'thinking', thinking: 'Let me think.', signature: 'sig' },
    { type: 'redacted_thinking', data: 'opaque' },
    { type: 'text', text: 'Reading both.' },
    { type: 'tool_call', id: 'call_1', name: 'read', arguments: '{"path":"a.txt"}' },
    { type: 'tool_call', id: 'call_2', name: 'read', arguments: '{"path":"b.txt"}' },
  ],
  stopReason: 'tool_use',
  usage: { input: 112, output: 40, cacheRead: 100, cacheWrite: 0, reasoning: 5 },
});

const expectedUsage = {
  prompt_tokens: 112,
  completion_tokens: 40,
  total_tokens: 152,
  prompt_tokens_details: { cached_tokens: 100, audio_tokens: 0 },
  completion_tokens_details: {
    reasoning_tokens: 5,
    audio_tokens: 0,
    accepted_prediction_tokens: 0,
    rejected_prediction_tokens: 0,
  },
};

describe('openaiChatProtocol.renderResponse', () => {
  it('renders text, reasoning_content, tool calls, finish reason and usage', () => {
    expect(roundTrip(openaiChatProtocol.renderResponse(everyBlock, request()))).toEqual({
      id: 'chatcmpl-mock000001',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gpt-test',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Reading both.',
            refusal: null,
            annotations: [],
            reasoning_content: 'Let me think.',
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } },
              { id: 'call_2', type: 'function', function: { name: 'read', arguments: '{"path":"b.txt"}' } },
            ],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: expectedUsage,
      service_tier: 'default',
      system_fingerprint: null,
    });
  });

  it('sends null content beside tool calls and no id when the call has none', () => {
    const body = roundTrip(
      openaiChatProtocol.renderResponse(
        turn({ content: [{ type: 'tool_call', id: undefined, name: 'ls', arguments: '{}' }], rawStopReason: 'eos' }),
        request(),
      ),
    );
    expect(at(body, 'choices', 0, 'message', 'content')).toBeNull();
    expect(at(body, 'choices', 0, 'message', 'tool_calls')).toEqual([
      { type: 'function', function: { name: 'ls', arguments: '{}' } },
    ]);
  });

  it('reports cache writes when there are any', () => {
    const usage = at(
      roundTrip(
        openaiChatProtocol.renderResponse(turn({ usage: { ...turn().usage, input: 40, cacheWrite: 30 } }), request()),
      ),
      'usage',
    );
    expect(at(usage, 'prompt_tokens')).toBe(40);
    expect(at(usage, 'prompt_tokens_details', 'cache_write_tokens')).toBe(30);
  });
});

describe('openaiChatProtocol.renderStream', () => {
  it('streams content, reasoning_content and tool calls that rebuild the message', () => {
    const events = openaiChatProtocol.renderStream(everyBlock, request());
    expect(assemble(events)).toEqual({
      content: 'Reading both.',
      reasoning: 'Let me think.',
      calls: [
        { id: 'call_1', name: 'read', arguments: '{"path":"a.txt"}' },
        { id: 'call_2', name: 'read', arguments: '{"path":"b.txt"}' },
      ],
    });
  });

  it('opens with the assistant role and names each call only in its first delta', () => {
    const all = deltas(openaiChatProtocol.renderStream(everyBlock, request()));
    expect(all[0]).toEqual({ role: 'assistant', content: '', refusal: null });
    const toolDeltas = all
      .filter((delta) => at(delta, 'tool_calls') !== undefined)
      .map((delta) => at(delta, 'tool_calls', 0));
    expect(toolDeltas[0]).toEqual({
      index: 0,
      id: 'call_1',
      type: 'function',
      function: { name: 'read', arguments: '' },
    });
    expect(toolDeltas.slice(1, 3)).toEqual([
      { index: 0, function: { arguments: '{"path":' } },
      { index: 0, function: { arguments: '"a.txt"}' } },
    ]);
    expect(toolDeltas[3]).toMatchObject({ index: 1, id: 'call_2' });
  });

  it('ends with finish_reason then [DONE], both closing, and no usage unless asked', () => {
    const events = openaiChatProtocol.renderStream(everyBlock, request());
    expect(events.at(-1)).toEqual({ data: '[DONE]', terminal: true });
    const last = events.at(-2);
    expect(last?.terminal).toBe(true);
    expect(at(JSON.parse(last?.data ?? '{}'), 'choices', 0)).toEqual({
      index: 0,
      delta: {},
      logprobs: null,
      finish_reason: 'tool_calls',
    });
    expect(events.filter((event) => event.terminal)).toHaveLength(2);
    for (const chunk of chunks(events)) expect(chunk).not.toHaveProperty('usage');
  });

  it('adds a usage chunk with empty choices when include_usage is set', () => {
    const events = openaiChatProtocol.renderStream(everyBlock, request({ includeUsage: true }));
    expect(events.filter((event) => event.terminal)).toHaveLength(3);
    const usageChunk = JSON.parse(events.at(-2)?.data ?? '{}');
    expect(at(usageChunk, 'choices')).toEqual([]);
    expect(at(usageChunk, 'usage')).toEqual(expectedUsage);
    expect(at(usageChunk, 'object')).toBe('chat.completion.chunk');
    for (const chunk of chunks(events).slice(0, -1)) expect(at(chunk, 'usage')).toBeNull();
  });

  it('streams a call without an id', () => {
    const events = openaiChatProtocol.renderStream(
      turn({ content: [{ type: 'tool_call', id: undefined, name: 'ls', arguments: '{}' }] }),
      request(),
    );
    expect(at(deltas(events)[1], 'tool_calls', 0)).toEqual({
      index: 0,
      type: 'function',
      function: { name: 'ls', arguments: '' },
    });
  });
});

describe('openaiChatProtocol.renderError', () => {
  // Statuses per kind are checked for every protocol in protocol-contract.test.ts.
  const table: [MockErrorKind, string, string | null][] = [
    ['rate_limit', 'requests', 'rate_limit_exceeded'],
    ['quota', 'insufficient_quota', 'insufficient_quota'],
    ['overloaded', 'service_unavailable_error', 'server_is_overloaded'],
    ['context_overflow', 'invalid_request_error', 'context_length_exceeded'],
    ['auth', 'invalid_request_error', 'invalid_api_key'],
    ['permission', 'request_forbidden', 'unsupported_country_region_territory'],
    ['not_found', 'invalid_request_error', 'model_not_found'],
    ['invalid_request', 'invalid_request_error', 'missing_required_parameter'],
    ['server', 'server_error', null],
  ];

  it.each(table)('renders %s with type %s and code %s', (kind, type, code) => {
    const rendered = openaiChatProtocol.renderError({ error: kind }, request());
    const body = JSON.parse(rendered.body);
    expect(Object.keys(at(body, 'error') as object).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(at(body, 'error', 'type')).toBe(type);
    expect(at(body, 'error', 'code')).toBe(code);
  });

  it('words a context overflow with the token counts', () => {
    const rendered = openaiChatProtocol.renderError(
      { error: 'context_overflow', requestedTokens: 130_000, limitTokens: 128_000 },
      request(),
    );
    expect(at(JSON.parse(rendered.body), 'error')).toEqual({
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    });
  });

  it('masks the presented key and names the model', () => {
    const auth = openaiChatProtocol.renderError(
      { error: 'auth' },
      request({ headers: { authorization: 'Bearer sk-test-1234567890' } }),
    );
    expect(at(JSON.parse(auth.body), 'error', 'message')).toMatch(/^Incorrect API key provided: sk-\*+7890\./);
    const missing = openaiChatProtocol.renderError({ error: 'not_found' }, request());
    expect(at(JSON.parse(missing.body), 'error', 'message')).toBe(
      'The model `gpt-test` does not exist or you do not have access to it.',
    );
  });

  it('sends both retry headers', () => {
    // Status, message and retry-after overrides are checked in protocol-contract.test.ts.
    expect(renderErrorOverride(contract).headers).toEqual({ 'retry-after': '2', 'retry-after-ms': '1500' });
  });
});

describe('openaiChatProtocol stream extras', () => {
  it('renders the in-stream error as a chunk holding only `error`', () => {
    const event = openaiChatProtocol.renderStreamError({ error: 'server', message: 'boom' }, request());
    expect(event.event).toBeUndefined();
    expect(JSON.parse(event.data)).toEqual({
      error: { message: 'boom', type: 'server_error', param: null, code: null },
    });
  });
});

describe.skipIf(!providerStreamsDir)(`openaiChatProtocol with recorded streams (${fixturesSkipReason})`, () => {
  const lines = (name: string) => readFileSync(fixture(`openai-chat/${name}`), 'utf8').split('\n');

  it('replays chunks as data lines, closing with the finish and usage chunks and [DONE]', () => {
    const recorded = lines('openai-text.chunks.txt').filter((line) => line.trim() !== '');
    const events = openaiChatProtocol.replayStream(recorded);
    expect(events.map((event) => event.data)).toEqual([...recorded, '[DONE]']);
    expect(events.every((event) => event.event === undefined)).toBe(true);
    const closing = events.filter((event) => event.terminal);
    expect(closing).toHaveLength(3);
    expect(at(JSON.parse(closing[0]?.data ?? '{}'), 'choices', 0, 'finish_reason')).toBe('stop');
    expect(at(JSON.parse(closing[1]?.data ?? '{}'), 'usage', 'completion_tokens')).toBe(300);
  });

  it('does not take an Azure prompt-filter chunk with empty choices for the usage chunk', () => {
    const events = openaiChatProtocol.replayStream(lines('azure-model-router.1.chunks.txt'));
    expect(events[0]?.terminal).toBeUndefined();
  });

  it('renders reasoning the way the DeepSeek recording sends it', () => {
    const recorded = chunks(openaiChatProtocol.replayStream(lines('deepseek-reasoning.chunks.txt')));
    const recordedKeys = new Set(recorded.flatMap((chunk) => Object.keys(at(chunk, 'choices', 0, 'delta') as object)));
    const rendered = deltas(
      openaiChatProtocol.renderStream(
        turn({ content: [{ type: 'thinking', thinking: 'We need', signature: undefined }] }),
        request(),
      ),
    );
    expect(recordedKeys.has('reasoning_content')).toBe(true);
    expect(rendered.slice(1)).toEqual([{ reasoning_content: 'We ne' }, { reasoning_content: 'ed' }, {}]);
  });
});
