import { readFileSync } from 'node:fs';
import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../spec/tool-definition.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../../test/fixtures.js';
import { assemble, collectEvents, contractViolations, writeChunks } from './openai-responses.test-helpers.js';
import { createOpenAIResponsesProvider } from './openai-responses-provider.js';

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer();
});

afterAll(async () => {
  await mock.close();
});

function provider(retries = 0) {
  return createOpenAIResponsesProvider({
    baseURL: `${mock.url}/v1`,
    apiKey: 'sk-test-conformance-0001',
    retry: { maxRetries: retries, sleep: async () => {} },
    stall: { firstByteTimeoutMs: 2_000, idleTimeoutMs: 2_000 },
  });
}

const weatherTools: ToolDefinition[] = [
  { name: 'weather', description: 'Weather', inputSchema: { type: 'object', properties: { location: {} } } },
  { name: 'cityAttractions', description: 'Attractions', inputSchema: { type: 'object', properties: { city: {} } } },
];

async function replay(path: string, tools = weatherTools) {
  mock.setScript({ steps: [{ replay: path, protocol: 'openai-responses' }] });
  const events = await collectEvents(provider(), {
    model: 'gpt-test',
    messages: [{ role: 'user', content: 'Go' }],
    tools,
  });
  return { events, response: assemble(events) };
}

/** The item of one line of a recorded fixture (1-based line number). */
function fixtureItem(file: string, line: number): Record<string, unknown> {
  const text = readFileSync(fixture(`openai-responses/${file}`), 'utf8').split('\n')[line - 1] ?? '';
  return (JSON.parse(text) as { item: Record<string, unknown> }).item;
}

describe.skipIf(!providerStreamsDir)(`recorded OpenAI Responses streams (${fixturesSkipReason})`, () => {
  it('openai-reasoning-encrypted-content.1: reasoning summary, encrypted content from output_item.done, a call', async () => {
    const { events, response } = await replay(
      fixture('openai-responses/openai-reasoning-encrypted-content.1.chunks.txt'),
    );
    expect(contractViolations(events)).toEqual([]);
    // The file records four responses of one conversation back to back; one request reads the first,
    // up to its response.completed, and stops.
    expect(events[0]).toEqual({
      type: 'message-start',
      id: 'resp_01830d662ab3856501693c321345c88190b0de00f3b9975691',
      model: 'gpt-5.1-codex-max',
    });
    const reasoningDone = fixtureItem('openai-reasoning-encrypted-content.1.chunks.txt', 39);
    const reasoningAdded = fixtureItem('openai-reasoning-encrypted-content.1.chunks.txt', 3);
    expect(reasoningDone.encrypted_content).not.toBe(reasoningAdded.encrypted_content);
    expect(response.message.content).toEqual([
      {
        type: 'thinking',
        thinking:
          "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.",
        providerMetadata: {
          'openai-responses': {
            itemId: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
            encryptedContent: reasoningDone.encrypted_content,
          },
        },
      },
      {
        type: 'tool_use',
        id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
        name: 'calculator',
        input: { a: 12, b: 7, op: 'add' },
        providerMetadata: { 'openai-responses': { itemId: 'fc_01830d662ab3856501693c32151234819091cfca267e98cc5f' } },
      },
    ]);
    expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'completed' });
    expect(response.usage).toEqual({
      input: { total: 134, noCache: 134, cacheRead: 0, cacheWrite: 0 },
      output: { total: 28, text: 28, reasoning: 0 },
    });
    expect(events.filter((event) => event.type === 'thinking-delta')).toHaveLength(32);
    expect(events.filter((event) => event.type === 'tool-call-input-delta')).toHaveLength(13);
  });

  it('openai-custom-tool.1: a custom tool call keeps its free-text input', async () => {
    const { events, response } = await replay(fixture('openai-responses/openai-custom-tool.1.chunks.txt'));
    expect(contractViolations(events)).toEqual([]);
    expect(events[0]).toEqual({ type: 'message-start', id: 'resp_custom_tool_test_001', model: 'gpt-5.2-codex' });
    // Custom tool input is not JSON, so no tool-call-input-delta is emitted for it.
    expect(events.filter((event) => event.type === 'tool-call-input-delta')).toEqual([]);
    expect(response.message.content).toEqual([
      {
        type: 'tool_use',
        id: 'call_custom_sql_001',
        name: 'write_sql',
        input: { input: 'SELECT * FROM users WHERE age > 25' },
        providerMetadata: { 'openai-responses': { itemId: 'ct_abc123def456', customToolCall: true } },
      },
    ]);
    expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'completed' });
    expect(response.usage.input.total).toBe(50);
    expect(response.usage.output.total).toBe(20);
  });

  describe('parallel-tool-call-wrapper.1 (lines 1 and 6, response.created and response.completed, are not valid JSON)', () => {
    it('skips the broken events, expands the wrapper into the declared calls, then ends with one error', async () => {
      const { events, response } = await replay(fixture('openai-responses/parallel-tool-call-wrapper.1.chunks.txt'));
      expect(contractViolations(events)).toEqual([]);
      expect(events[0]).toEqual({ type: 'message-start' });
      expect(response.message.content).toEqual([
        { type: 'tool_use', id: 'call_parallel_1', name: 'weather', input: { location: 'San Francisco' } },
        { type: 'tool_use', id: 'call_parallel_2', name: 'cityAttractions', input: { city: 'Rome' } },
      ]);
      const last = events.at(-1);
      expect(last?.type).toBe('error');
      if (last?.type !== 'error') return;
      expect(last.error.reason).toBe('unknown');
      expect(last.error.message).toContain('2 event(s) were not valid JSON');
      expect(last.error.message).toContain('response.created, response.completed');
      expect(response.finishReason).toEqual({ unified: 'error', raw: 'unknown' });
    });

    it('leaves the wrapper call as sent when the request declared no tool it names', async () => {
      const { response } = await replay(fixture('openai-responses/parallel-tool-call-wrapper.1.chunks.txt'), [
        { name: 'other', description: 'x', inputSchema: { type: 'object' } },
      ]);
      expect(response.message.content).toMatchObject([
        {
          type: 'tool_use',
          id: 'call_parallel',
          name: 'parallel',
          input: {
            tool_uses: [{ recipient_name: 'functions.weather' }, { recipient_name: 'functions.cityAttractions' }],
          },
          providerMetadata: { 'openai-responses': { itemId: 'fc_parallel' } },
        },
      ]);
    });
  });
});

const created = (id = 'resp_1') => ({
  type: 'response.created',
  response: { id, model: 'gpt-test', status: 'in_progress', output: [], usage: null },
});
const finished = (status: string, extra: Record<string, unknown> = {}) => ({
  type: status === 'completed' ? 'response.completed' : 'response.incomplete',
  response: {
    id: 'resp_1',
    status,
    usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 4 }, output_tokens: 6 },
    ...extra,
  },
});
const added = (index: number, item: Record<string, unknown>) => ({
  type: 'response.output_item.added',
  output_index: index,
  item,
});
const done = (index: number, item: Record<string, unknown>) => ({
  type: 'response.output_item.done',
  output_index: index,
  item,
});

describe('hand-written streams for what the recordings miss', () => {
  it('two summary parts become two thinking blocks; the encrypted content rides on the last; phase is kept', async () => {
    const { events, response } = await replay(
      writeChunks([
        created(),
        { type: 'keepalive', sequence_number: 1 },
        added(0, { id: 'rs_1', type: 'reasoning', summary: [] }),
        { type: 'response.reasoning_summary_part.added', item_id: 'rs_1', output_index: 0, summary_index: 0 },
        {
          type: 'response.reasoning_summary_text.delta',
          item_id: 'rs_1',
          output_index: 0,
          summary_index: 0,
          delta: 'First.',
        },
        { type: 'response.reasoning_summary_part.added', item_id: 'rs_1', output_index: 0, summary_index: 1 },
        {
          type: 'response.reasoning_summary_text.delta',
          item_id: 'rs_1',
          output_index: 0,
          summary_index: 1,
          delta: 'Second.',
        },
        { type: 'keepalive', sequence_number: 6 },
        done(0, { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'enc-1' }),
        added(1, { id: 'msg_1', type: 'message', role: 'assistant', phase: 'final_answer', content: [] }),
        {
          type: 'response.content_part.added',
          item_id: 'msg_1',
          output_index: 1,
          content_index: 0,
          part: { type: 'output_text', text: '' },
        },
        { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 1, content_index: 0, delta: 'Hi ' },
        { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 1, content_index: 0, delta: 'there' },
        { type: 'response.content_part.done', item_id: 'msg_1', output_index: 1, content_index: 0 },
        { type: 'response.web_search_call.searching', item_id: 'ws_1', output_index: 2 },
        done(1, {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Hi there' }],
        }),
        finished('completed'),
      ]),
    );
    expect(contractViolations(events)).toEqual([]);
    expect(response.message.content).toEqual([
      { type: 'thinking', thinking: 'First.', providerMetadata: { 'openai-responses': { itemId: 'rs_1' } } },
      {
        type: 'thinking',
        thinking: 'Second.',
        providerMetadata: { 'openai-responses': { itemId: 'rs_1', encryptedContent: 'enc-1' } },
      },
      {
        type: 'text',
        text: 'Hi there',
        providerMetadata: { 'openai-responses': { itemId: 'msg_1', phase: 'final_answer' } },
      },
    ]);
    expect(response.finishReason).toEqual({ unified: 'stop', raw: 'completed' });
    expect(response.usage.input).toEqual({ total: 10, noCache: 6, cacheRead: 4, cacheWrite: 0 });
  });

  it('reasoning text parts, a reasoning item with no text, a refusal and items announced only when done', async () => {
    const { events, response } = await replay(
      writeChunks([
        created(),
        added(0, { id: 'rs_a', type: 'reasoning', summary: [] }),
        {
          type: 'response.reasoning_text.delta',
          item_id: 'rs_a',
          output_index: 0,
          content_index: 0,
          delta: 'raw thought',
        },
        done(0, {
          id: 'rs_a',
          type: 'reasoning',
          summary: [],
          content: [{ type: 'reasoning_text', text: 'raw thought' }],
        }),
        added(1, { id: 'rs_b', type: 'reasoning', summary: [] }),
        done(1, { id: 'rs_b', type: 'reasoning', summary: [], encrypted_content: 'enc-b' }),
        done(2, { id: 'rs_c', type: 'reasoning', summary: [{ type: 'summary_text', text: 'late summary' }] }),
        added(3, { id: 'msg_r', type: 'message', role: 'assistant', content: [] }),
        {
          type: 'response.refusal.delta',
          item_id: 'msg_r',
          output_index: 3,
          content_index: 0,
          delta: 'I cannot help.',
        },
        done(3, { id: 'msg_r', type: 'message', content: [{ type: 'refusal', refusal: 'I cannot help.' }] }),
        done(4, { id: 'msg_late', type: 'message', content: [{ type: 'output_text', text: 'whole' }] }),
        finished('completed'),
      ]),
    );
    expect(contractViolations(events)).toEqual([]);
    expect(response.message.content).toEqual([
      {
        type: 'thinking',
        thinking: 'raw thought',
        providerMetadata: { 'openai-responses': { itemId: 'rs_a', reasoningText: true } },
      },
      { type: 'redacted_thinking', data: 'enc-b', providerMetadata: { 'openai-responses': { itemId: 'rs_b' } } },
      { type: 'thinking', thinking: 'late summary', providerMetadata: { 'openai-responses': { itemId: 'rs_c' } } },
      {
        type: 'text',
        text: 'I cannot help.',
        providerMetadata: { 'openai-responses': { itemId: 'msg_r', refusal: true } },
      },
      { type: 'text', text: 'whole', providerMetadata: { 'openai-responses': { itemId: 'msg_late' } } },
    ]);
    expect(response.finishReason).toEqual({ unified: 'refusal', raw: 'completed' });
  });

  it('a function call announced only when done, and one without call_id, get usable ids and parsed input', async () => {
    const { events, response } = await replay(
      writeChunks([
        created(),
        done(0, {
          id: 'fc_a',
          type: 'function_call',
          call_id: 'call_a',
          name: 'weather',
          arguments: '{"location":"Oslo"}',
        }),
        added(1, { id: 'fc_b', type: 'function_call', name: 'weather', arguments: '' }),
        { type: 'response.function_call_arguments.delta', item_id: 'fc_b', output_index: 1, delta: '{"location":' },
        { type: 'response.function_call_arguments.delta', item_id: 'fc_b', output_index: 1, delta: '"Rome"}' },
        done(1, { id: 'fc_b', type: 'function_call', name: 'weather', arguments: '{"location":"Rome"}' }),
        finished('completed'),
      ]),
    );
    expect(contractViolations(events)).toEqual([]);
    expect(response.message.content).toMatchObject([
      { type: 'tool_use', id: 'call_a', name: 'weather', input: { location: 'Oslo' } },
      { type: 'tool_use', id: 'call_1', name: 'weather', input: { location: 'Rome' } },
    ]);
  });

  it.each([
    ['max_output_tokens', { unified: 'length', raw: 'max_output_tokens' }],
    ['content_filter', { unified: 'content-filter', raw: 'content_filter' }],
    ['something_new', { unified: 'other', raw: 'something_new' }],
  ])('response.incomplete with reason %s ends as %j', async (reason, finishReason) => {
    const { events, response } = await replay(
      writeChunks([created(), finished('incomplete', { incomplete_details: { reason } })]),
    );
    expect(contractViolations(events)).toEqual([]);
    expect(response.finishReason).toEqual(finishReason);
  });

  it('an unknown status keeps its raw value', async () => {
    const { response } = await replay(writeChunks([created(), finished('completed', { status: 'cancelled' })]));
    expect(response.finishReason).toEqual({ unified: 'other', raw: 'cancelled' });
  });

  it('parallel function calls from a scripted turn, with cached and reasoning tokens counted once', async () => {
    mock.setScript({
      steps: [
        {
          content: [
            { type: 'thinking', thinking: 'Two lookups.', signature: 'enc-sig' },
            { type: 'tool_call', id: 'call_x', name: 'weather', input: { location: 'Paris' } },
            { type: 'tool_call', id: 'call_y', name: 'cityAttractions', input: { city: 'Lyon' } },
          ],
          usage: { input: 2000, cacheRead: 1500, output: 40, reasoning: 12 },
        },
      ],
    });
    const events = await collectEvents(provider(), {
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'Go' }],
      tools: weatherTools,
    });
    expect(contractViolations(events)).toEqual([]);
    const response = assemble(events);
    expect(response.message.content).toMatchObject([
      {
        type: 'thinking',
        thinking: 'Two lookups.',
        providerMetadata: { 'openai-responses': { encryptedContent: 'enc-sig' } },
      },
      { type: 'tool_use', id: 'call_x', name: 'weather', input: { location: 'Paris' } },
      { type: 'tool_use', id: 'call_y', name: 'cityAttractions', input: { city: 'Lyon' } },
    ]);
    expect(response.usage).toEqual({
      input: { total: 2000, noCache: 500, cacheRead: 1500, cacheWrite: 0 },
      output: { total: 40, text: 28, reasoning: 12 },
    });
    expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'completed' });
  });

  it('createMessage assembles the same message as streamMessage', async () => {
    const path = writeChunks([
      created('resp_same'),
      done(0, {
        id: 'rs_s',
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'Think.' }],
        encrypted_content: 'enc',
      }),
      added(1, { id: 'msg_s', type: 'message', role: 'assistant', content: [] }),
      { type: 'response.output_text.delta', item_id: 'msg_s', output_index: 1, content_index: 0, delta: 'Answer ✓' },
      done(1, { id: 'msg_s', type: 'message', content: [{ type: 'output_text', text: 'Answer ✓' }] }),
      added(2, { id: 'fc_s', type: 'function_call', call_id: 'call_s', name: 'weather', arguments: '' }),
      {
        type: 'response.function_call_arguments.delta',
        item_id: 'fc_s',
        output_index: 2,
        delta: '{"location":"Nice"}',
      },
      done(2, {
        id: 'fc_s',
        type: 'function_call',
        call_id: 'call_s',
        name: 'weather',
        arguments: '{"location":"Nice"}',
      }),
      finished('completed'),
    ]);
    const step = { replay: path, protocol: 'openai-responses' as const };
    mock.setScript({ steps: [step, step] });
    const request = { model: 'gpt-5', messages: [{ role: 'user' as const, content: 'Go' }], tools: weatherTools };
    const streamed = assemble(await collectEvents(provider(), request));
    const createdMessage = await provider().createMessage(request);
    expect(createdMessage).toEqual(streamed);
    expect(createdMessage.message.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(createdMessage.id).toBe('resp_same');
  });

  it('stops promptly with an aborted error when the caller aborts mid-stream', async () => {
    // 200 deltas 50 ms apart: the whole stream would take 10 s, so ending within 5 s shows the abort cut it.
    mock.setScript({ steps: [{ text: 'x'.repeat(200), chunking: { textDelta: 1, delayMs: 50 } }] });
    const controller = new AbortController();
    const events = [];
    const started = Date.now();
    for await (const event of provider().streamMessage(
      { model: 'gpt-test', messages: [{ role: 'user', content: 'Go' }] },
      { signal: controller.signal },
    )) {
      events.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expect(Date.now() - started).toBeLessThan(5_000);
    const last = events.at(-1);
    expect(last?.type === 'error' && last.error.reason).toBe('aborted');
    expect(events.filter((event) => event.type === 'text-delta')).toHaveLength(1);
  });

  it('lists models from GET /models', async () => {
    const models = await provider().listModels();
    expect(models.length).toBeGreaterThan(0);
    for (const model of models) expect(typeof model.id).toBe('string');
    expect(mock.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' });
  });
});
