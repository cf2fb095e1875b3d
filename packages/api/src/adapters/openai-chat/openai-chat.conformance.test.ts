import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type MockServer, type MockStep, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AssistantResponse } from '../../spec/response.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../../test/fixtures.js';
import { assemble, collectEvents, eventOutline, expectWellFormed, textOf } from './openai-chat.test.helpers.js';
import { createOpenAIChatProvider } from './openai-chat-provider.js';
import type { OpenAIChatSettings } from './openai-chat-settings.js';

// Every recording of shared/fixtures/provider-streams/openai-chat replayed through the mock, with
// expectations written from reading each file; then scripted turns. Hand-written streams for the
// cases no recording shows are in openai-chat.edge-cases.test.ts.

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer();
});

afterAll(async () => {
  await mock.close();
});

beforeEach(() => {
  mock.clearRequests();
});

const request = { model: 'test-model', messages: [{ role: 'user' as const, content: 'Hello' }] };

function provider(settings: OpenAIChatSettings = {}) {
  return createOpenAIChatProvider({
    baseURL: `${mock.url}/v1`,
    apiKey: 'test-key-1234',
    retry: { maxRetries: 0 },
    ...settings,
  });
}

async function stream(
  step: MockStep,
  settings?: OpenAIChatSettings,
): Promise<{ events: StreamEvent[]; response: AssistantResponse }> {
  mock.setScript({ steps: [step] });
  const events = await collectEvents(provider(settings).streamMessage(request));
  expectWellFormed(events);
  return { events, response: assemble(events) };
}

describe.skipIf(!providerStreamsDir)(
  `recorded streams (${providerStreamsDir ? 'shared/fixtures/provider-streams/openai-chat' : fixturesSkipReason})`,
  () => {
    it('replays every file of the openai-chat folder in this suite', () => {
      const covered = [
        'alibaba-tool-call.chunks.txt',
        'azure-model-router.1.chunks.txt',
        'deepseek-reasoning.chunks.txt',
        'deepseek-reasoning.json',
        'deepseek-tool-call.chunks.txt',
        'deepseek-tool-call.json',
        'groq-reasoning.chunks.txt',
        'groq-text.chunks.txt',
        'groq-tool-call.chunks.txt',
        'groq-tool-call.json',
        'mistral-reasoning.chunks.txt',
        'mistral-text.chunks.txt',
        'mistral-tool-call.chunks.txt',
        'moonshotai-stream.chunks.txt',
        'openai-text.chunks.txt',
        'perplexity-citations.chunks.txt',
        'xai-text.chunks.txt',
        'xai-tool-call.chunks.txt',
      ];
      expect(readdirSync(join(providerStreamsDir as string, 'openai-chat')).sort()).toEqual(covered);
    });

    it('openai-text: 1724 characters of text, stop, usage in the trailing chunk', async () => {
      const { events, response } = await stream({ replay: fixture('openai-chat/openai-text.chunks.txt') });
      expect(eventOutline(events)).toEqual([
        'message-start',
        'text-start:0',
        'text-delta:0',
        'text-end:0',
        'usage',
        'message-end',
      ]);
      expect(response.id).toBe('chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0');
      expect(response.model).toBe('gpt-4.1-nano-2025-04-14');
      const text = textOf(response, 'text');
      expect(text).toHaveLength(1724);
      expect(text.startsWith('**Holiday Name:** Harmony Day\n\n**Date:** Celebrated annually')).toBe(true);
      expect(text.endsWith('connected through shared human experiences and mutual respect.')).toBe(true);
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'stop' });
      expect(response.usage).toEqual({
        input: { total: 16, noCache: 16, cacheRead: 0, cacheWrite: 0 },
        output: { total: 300, text: 300, reasoning: 0 },
      });
    });

    it('azure model router: skips the prompt-filter chunk (no id, no choices) and reports the routed model', async () => {
      const { events, response } = await stream({ replay: fixture('openai-chat/azure-model-router.1.chunks.txt') });
      expect(events[0]).toEqual({
        type: 'message-start',
        id: 'chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt',
        model: 'gpt-5-nano-2025-08-07',
      });
      expect(response.message.content).toEqual([{ type: 'text', text: 'Capital of Denmark.' }]);
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'stop' });
      expect(response.usage).toEqual({
        input: { total: 15, noCache: 15, cacheRead: 0, cacheWrite: 0 },
        output: { total: 78, text: 14, reasoning: 64 },
      });
    });

    it('deepseek reasoning (stream): reasoning_content then content, cache hit/miss usage', async () => {
      const { events, response } = await stream({ replay: fixture('openai-chat/deepseek-reasoning.chunks.txt') });
      expect(eventOutline(events)).toEqual([
        'message-start',
        'thinking-start:0',
        'thinking-delta:0',
        'thinking-end:0',
        'text-start:1',
        'text-delta:1',
        'text-end:1',
        'usage',
        'message-end',
      ]);
      const thinking = textOf(response, 'thinking');
      expect(thinking).toHaveLength(606);
      expect(thinking.startsWith('We need to count the number of the letter "r" in the word "s')).toBe(true);
      expect(thinking.endsWith('at positions 3, 8, and 9. So yes, 3.\n\nThus, the answer is 3.')).toBe(true);
      expect(textOf(response, 'text')).toBe('The word "strawberry" contains three "r"s.');
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'stop' });
      expect(response.usage).toEqual({
        input: { total: 18, noCache: 18, cacheRead: 0, cacheWrite: 0 },
        output: { total: 219, text: 14, reasoning: 205 },
      });
    });

    it('deepseek reasoning (json, createMessage): same shape from a non-streamed body', async () => {
      mock.setScript({ steps: [{ replay: fixture('openai-chat/deepseek-reasoning.json') }] });
      const response = await provider().createMessage(request);
      expect(response.id).toBe('945bb10c-9bf3-47ff-a2a2-43bbe9705c72');
      expect(response.model).toBe('deepseek-reasoner');
      expect(response.message.content.map((block) => block.type)).toEqual(['thinking', 'text']);
      expect(
        textOf(response, 'thinking').startsWith("We are asked: \"How many 'r's are in the word 'strawberry'?\""),
      ).toBe(true);
      expect(textOf(response, 'thinking').endsWith('So answer is 3.')).toBe(true);
      expect(textOf(response, 'text')).toBe(
        'The word "strawberry" contains three instances of the letter "r": one after the "t" and two before the "y".',
      );
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'stop' });
      expect(response.usage).toEqual({
        input: { total: 18, noCache: 18, cacheRead: 0, cacheWrite: 0 },
        output: { total: 345, text: 30, reasoning: 315 },
      });
      expect(mock.requests[0]?.body).toMatchObject({ stream: false });
    });

    it('deepseek tool call (stream): reasoning, then one call assembled from 20+ argument pieces', async () => {
      const { events, response } = await stream({ replay: fixture('openai-chat/deepseek-tool-call.chunks.txt') });
      expect(eventOutline(events)).toEqual([
        'message-start',
        'thinking-start:0',
        'thinking-delta:0',
        'thinking-end:0',
        'tool-call-start:1',
        'tool-call-input-delta:1',
        'tool-call-end:1',
        'usage',
        'message-end',
      ]);
      expect(textOf(response, 'thinking')).toHaveLength(191);
      expect(response.message.content[1]).toEqual({
        type: 'tool_use',
        id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF',
        name: 'weather',
        input: { location: 'San Francisco' },
      });
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_calls' });
      expect(response.usage).toEqual({
        input: { total: 339, noCache: 19, cacheRead: 320, cacheWrite: 0 },
        output: { total: 83, text: 44, reasoning: 39 },
      });
    });

    it('deepseek tool call (json, createMessage)', async () => {
      mock.setScript({ steps: [{ replay: fixture('openai-chat/deepseek-tool-call.json') }] });
      const response = await provider().createMessage(request);
      expect(response.message.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
      expect(textOf(response, 'thinking').startsWith('The user is asking for the weather in San Francisco.')).toBe(
        true,
      );
      expect(response.message.content[1]).toEqual({
        type: 'tool_use',
        id: 'call_00_9V0vrf86Pc9aelHCJMZqnJBo',
        name: 'weather',
        input: { location: 'San Francisco' },
      });
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_calls' });
      expect(response.usage).toEqual({
        input: { total: 339, noCache: 19, cacheRead: 320, cacheWrite: 0 },
        output: { total: 92, text: 44, reasoning: 48 },
      });
    });

    it('groq text: 3189 characters, usage in the finish chunk (also under x_groq)', async () => {
      const { response } = await stream({ replay: fixture('openai-chat/groq-text.chunks.txt') });
      const text = textOf(response, 'text');
      expect(text).toHaveLength(3189);
      expect(text.startsWith('Introducing "Luminaria" - a new holiday that celebrates the ')).toBe(true);
      expect(text.endsWith('connection, and a deeper appreciation for the magic of light.')).toBe(true);
      expect(response.usage).toEqual({
        input: { total: 45, noCache: 45, cacheRead: 0, cacheWrite: 0 },
        output: { total: 662, text: 662, reasoning: 0 },
      });
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'stop' });
    });

    it('groq reasoning: the `reasoning` field becomes thinking', async () => {
      const { response } = await stream({ replay: fixture('openai-chat/groq-reasoning.chunks.txt') });
      expect(response.message.content.map((block) => block.type)).toEqual(['thinking', 'text']);
      const thinking = textOf(response, 'thinking');
      expect(thinking).toHaveLength(2952);
      expect(thinking.startsWith("Okay, let me try to figure out how many times the letter 'r'")).toBe(true);
      expect(textOf(response, 'text')).toHaveLength(347);
      expect(textOf(response, 'text').endsWith('**Final Answer**: $\\boxed{3}$')).toBe(true);
      expect(response.usage).toEqual({
        input: { total: 17, noCache: 17, cacheRead: 0, cacheWrite: 0 },
        output: { total: 1107, text: 144, reasoning: 963 },
      });
    });

    it('groq tool call (stream): a call whose arguments arrive whole', async () => {
      const { response } = await stream({ replay: fixture('openai-chat/groq-tool-call.chunks.txt') });
      expect(response.message.content).toEqual([{ type: 'tool_use', id: 'tk85n1k4m', name: 'weather', input: {} }]);
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_calls' });
      expect(response.usage.input.total).toBe(210);
      expect(response.usage.output.total).toBe(15);
    });

    it('groq tool call (json, createMessage): a call without index or content', async () => {
      mock.setScript({ steps: [{ replay: fixture('openai-chat/groq-tool-call.json') }] });
      const response = await provider().createMessage(request);
      expect(response.message.content).toEqual([{ type: 'tool_use', id: 'ax9fskhev', name: 'weather', input: {} }]);
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_calls' });
      expect(response.usage).toEqual({
        input: { total: 218, noCache: 218, cacheRead: 0, cacheWrite: 0 },
        output: { total: 15, text: 15, reasoning: 0 },
      });
    });

    it('mistral text', async () => {
      const { response } = await stream({ replay: fixture('openai-chat/mistral-text.chunks.txt') });
      expect(response.message.content).toEqual([{ type: 'text', text: 'Hello, world! This is a test response.' }]);
      expect(response.usage).toEqual({
        input: { total: 13, noCache: 13, cacheRead: 0, cacheWrite: 0 },
        output: { total: 8, text: 8, reasoning: 0 },
      });
    });

    it('mistral tool call: no index, no type, the finish reason in the same chunk', async () => {
      const { response } = await stream({ replay: fixture('openai-chat/mistral-tool-call.chunks.txt') });
      expect(response.message.content).toEqual([
        { type: 'tool_use', id: 'gSIMJiOkT', name: 'weather', input: { location: 'San Francisco' } },
      ]);
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_calls' });
      expect(response.usage.input.total).toBe(124);
      expect(response.usage.output.total).toBe(22);
    });

    it('mistral reasoning: thinking content parts, then text parts', async () => {
      const { response } = await stream({ replay: fixture('openai-chat/mistral-reasoning.chunks.txt') });
      expect(response.message.content).toEqual([
        { type: 'thinking', thinking: 'The user is asking for 2+2. This is basic arithmetic. 2+2=4.' },
        { type: 'text', text: '2 + 2 = 4' },
      ]);
      expect(response.model).toBe('magistral-medium-2507');
      expect(response.usage.output).toEqual({ total: 46, text: 46, reasoning: 0 });
    });

    it('xai text: reasoning outside completion_tokens is added to the output total', async () => {
      const { response } = await stream({ replay: fixture('openai-chat/xai-text.chunks.txt') });
      expect(response.message.content).toEqual([
        { type: 'thinking', thinking: 'First, the user said' },
        { type: 'text', text: 'Hello' },
      ]);
      expect(response.usage).toEqual({
        input: { total: 12, noCache: 1, cacheRead: 11, cacheWrite: 0 },
        output: { total: 291, text: 1, reasoning: 290 },
      });
    });

    it('xai tool call', async () => {
      const { response } = await stream({ replay: fixture('openai-chat/xai-tool-call.chunks.txt') });
      expect(response.message.content).toEqual([
        { type: 'thinking', thinking: 'First, the user is' },
        { type: 'tool_use', id: 'call_55117580', name: 'weather', input: { location: 'San Francisco' } },
      ]);
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_calls' });
      expect(response.usage).toEqual({
        input: { total: 291, noCache: 1, cacheRead: 290, cacheWrite: 0 },
        output: { total: 222, text: 26, reasoning: 196 },
      });
    });

    it('alibaba tool call: empty ids on later fragments and a trailing empty fragment add nothing', async () => {
      const { events, response } = await stream({ replay: fixture('openai-chat/alibaba-tool-call.chunks.txt') });
      expect(events.filter((event) => event.type === 'tool-call-start')).toHaveLength(1);
      expect(response.message.content).toEqual([
        {
          type: 'tool_use',
          id: 'call_eee11723464a4b9eb8cee71d',
          name: 'weather',
          input: { location: 'San Francisco' },
        },
      ]);
      expect(response.usage).toEqual({
        input: { total: 295, noCache: 295, cacheRead: 0, cacheWrite: 0 },
        output: { total: 22, text: 22, reasoning: 0 },
      });
    });

    it('moonshot: reasoning_content first, finish reason and usage on the last content chunk', async () => {
      const { response } = await stream({ replay: fixture('openai-chat/moonshotai-stream.chunks.txt') });
      expect(response.message.content).toEqual([
        { type: 'thinking', thinking: 'Thinking aloud. ' },
        { type: 'text', text: 'Hello!' },
      ]);
      expect(response.model).toBe('kimi-k3');
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'stop' });
      expect(response.usage.output).toEqual({ total: 12, text: 5, reasoning: 7 });
    });

    it('perplexity: usage on every chunk (the last wins, never summed), citations on the message', async () => {
      const { events, response } = await stream({ replay: fixture('openai-chat/perplexity-citations.chunks.txt') });
      expect(response.message.content).toEqual([{ type: 'text', text: 'The current population of **[2][3]' }]);
      expect(response.usage).toEqual({
        input: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
        output: { total: 336, text: 336, reasoning: 0 },
      });
      expect(events.filter((event) => event.type === 'usage').length).toBeGreaterThan(1);
      const citations = response.message.providerMetadata?.['openai-chat']?.citations;
      expect(citations).toHaveLength(7);
      expect((citations as string[])[0]).toBe('https://populationstat.com/united-states/san-francisco');
    });
  },
);

describe('scripted streams (the mock renders them the OpenAI way)', () => {
  it('createMessage and streamMessage assemble the same message for the same turn', async () => {
    const turn = {
      content: [
        { type: 'thinking' as const, thinking: 'Plan: read the file.' },
        { type: 'text' as const, text: 'Reading é 😀 now.' },
        { type: 'tool_call' as const, id: 'call_a', name: 'read', input: { path: 'a.txt' } },
        { type: 'tool_call' as const, id: 'call_b', name: 'grep', input: { pattern: 'port', flags: ['-n'] } },
      ],
      usage: { input: 500, output: 60, cacheRead: 400, reasoning: 20 },
      chunking: { textDelta: 3, argumentsDelta: 5 },
    };
    mock.setScript({ steps: [turn, turn] });
    const streamed = assemble(await collectEvents(provider().streamMessage(request)));
    const created = await provider().createMessage(request);
    expect(created.message).toEqual(streamed.message);
    expect(created.finishReason).toEqual(streamed.finishReason);
    expect(created.usage).toEqual(streamed.usage);
    expect(streamed.usage).toEqual({
      input: { total: 500, noCache: 100, cacheRead: 400, cacheWrite: 0 },
      output: { total: 60, text: 40, reasoning: 20 },
    });
  });

  it('unknown finish reasons map to other with the raw value kept', async () => {
    for (const raw of ['model_context_window_exceeded', 'insufficient_system_resource']) {
      const { response } = await stream({ text: 'partial', rawStopReason: raw });
      expect(response.finishReason).toEqual({ unified: 'other', raw });
    }
  });

  it('length and content_filter finish reasons', async () => {
    expect((await stream({ text: 'cut', stopReason: 'max_tokens' })).response.finishReason).toEqual({
      unified: 'length',
      raw: 'length',
    });
    expect((await stream({ text: 'no', stopReason: 'content_filter' })).response.finishReason).toEqual({
      unified: 'content-filter',
      raw: 'content_filter',
    });
  });

  it('sends max_completion_tokens by default and max_tokens when the compat says so', async () => {
    mock.setScript({ steps: [{ text: 'a' }, { text: 'b' }] });
    await collectEvents(provider().streamMessage({ ...request, maxOutputTokens: 100 }));
    await collectEvents(
      provider({ compat: { maxTokensField: 'max_tokens', supportsStreamOptions: false } }).streamMessage({
        ...request,
        maxOutputTokens: 100,
      }),
    );
    expect(mock.requests[0]?.body).toMatchObject({
      max_completion_tokens: 100,
      stream_options: { include_usage: true },
    });
    expect(mock.requests[0]?.body).not.toHaveProperty('max_tokens');
    expect(mock.requests[1]?.body).toMatchObject({ max_tokens: 100 });
    expect(mock.requests[1]?.body).not.toHaveProperty('stream_options');
  });

  it('sends the api-key header and query parameters of an Azure deployment', async () => {
    mock.setScript({ steps: [{ text: 'hi' }] });
    const azure = createOpenAIChatProvider({
      baseURL: `${mock.url}/openai/deployments/gpt-4o-prod`,
      apiKey: 'azure-key-9876',
      authStyle: 'api-key',
      query: { 'api-version': '2024-10-21' },
    });
    const response = assemble(await collectEvents(azure.streamMessage(request)));
    expect(textOf(response, 'text')).toBe('hi');
    expect(mock.requests[0]?.path).toBe('/openai/deployments/gpt-4o-prod/chat/completions');
    expect(mock.requests[0]?.query).toEqual({ 'api-version': '2024-10-21' });
    expect(mock.requests[0]?.headers['api-key']).toMatch(/9876$/);
    expect(mock.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('lists models from GET {base}/models', async () => {
    const local = await startMockServer({ models: ['gpt-4o', 'o3'] });
    try {
      const models = await createOpenAIChatProvider({ baseURL: `${local.url}/v1`, apiKey: 'k' }).listModels();
      expect(models.map((model) => model.id)).toEqual(['gpt-4o', 'o3']);
      expect(local.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    } finally {
      await local.close();
    }
  });
});
