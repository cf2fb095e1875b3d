import OpenAI, { AzureOpenAI } from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MockTurn } from '../script/types.js';
import { type MockServer, startMockServer } from '../server/mock-server.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../test/fixtures.js';

let server: MockServer;

beforeEach(async () => {
  server = await startMockServer();
});

afterEach(async () => {
  await server.close();
});

function client(): OpenAI {
  return new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key', maxRetries: 0 });
}

const messages = [{ role: 'user' as const, content: 'Read both files' }];

const toolTurn: MockTurn = {
  content: [
    { type: 'text', text: 'Reading both files.' },
    { type: 'tool_call', id: 'call_a', name: 'read', input: { path: 'a.txt' } },
    { type: 'tool_call', id: 'call_b', name: 'read', input: { path: 'b.txt' } },
  ],
  usage: { input: 100, output: 33, cacheRead: 80, cacheWrite: 0, reasoning: 4 },
  chunking: { textDelta: 4, argumentsDelta: 3 },
};

const expectedCalls = [
  { id: 'call_a', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } },
  { id: 'call_b', type: 'function', function: { name: 'read', arguments: '{"path":"b.txt"}' } },
];

const expectedUsage = {
  prompt_tokens: 100,
  completion_tokens: 33,
  total_tokens: 133,
  prompt_tokens_details: { cached_tokens: 80 },
  completion_tokens_details: { reasoning_tokens: 4 },
};

describe('the OpenAI SDK against scripted chat completions', () => {
  it('streams chunks that rebuild text, tool calls, finish reason and the include_usage chunk', async () => {
    server.enqueue(toolTurn);
    const stream = await client().chat.completions.create({
      model: 'gpt-test',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const calls: { id?: string; name?: string; arguments: string }[] = [];
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (!choice) {
        usage = chunk.usage;
        continue;
      }
      text += choice.delta.content ?? '';
      for (const call of choice.delta.tool_calls ?? []) {
        const current = calls[call.index] ?? { arguments: '' };
        if (call.id) current.id = call.id;
        if (call.function?.name) current.name = call.function.name;
        current.arguments += call.function?.arguments ?? '';
        calls[call.index] = current;
      }
      finish = choice.finish_reason ?? finish;
    }
    expect(text).toBe('Reading both files.');
    expect(calls).toEqual([
      { id: 'call_a', name: 'read', arguments: '{"path":"a.txt"}' },
      { id: 'call_b', name: 'read', arguments: '{"path":"b.txt"}' },
    ]);
    expect(finish).toBe('tool_calls');
    expect(usage).toMatchObject(expectedUsage);
  });

  it('lets the SDK stream helper assemble the final completion', async () => {
    server.enqueue(toolTurn);
    const completion = await client()
      .chat.completions.stream({ model: 'gpt-test', messages, stream_options: { include_usage: true } })
      .finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe('Reading both files.');
    expect(completion.choices[0]?.message.tool_calls).toMatchObject(expectedCalls);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.usage).toMatchObject(expectedUsage);
  });

  it('parses a non-streamed completion with reasoning_content', async () => {
    server.enqueue({
      content: [
        { type: 'thinking', thinking: 'Short question.' },
        { type: 'text', text: 'Yes.' },
      ],
      stopReason: 'max_tokens',
    });
    const completion = await client().chat.completions.create({ model: 'deepseek-reasoner', messages });
    const message = completion.choices[0]?.message as OpenAI.ChatCompletionMessage & { reasoning_content?: string };
    expect(message.content).toBe('Yes.');
    expect(message.reasoning_content).toBe('Short question.');
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion.model).toBe('deepseek-reasoner');
  });

  it('serves the Azure deployment route to the AzureOpenAI client', async () => {
    server.enqueue({ text: 'From Azure.' });
    const azure = new AzureOpenAI({
      endpoint: server.url,
      apiKey: 'azure-key',
      apiVersion: '2024-10-21',
      deployment: 'my-deployment',
      maxRetries: 0,
    });
    const completion = await azure.chat.completions.create({ model: 'gpt-4o', messages });
    expect(completion.choices[0]?.message.content).toBe('From Azure.');
    expect(server.requests[0]?.path).toBe('/openai/deployments/my-deployment/chat/completions');
    expect(server.requests[0]?.protocol).toBe('openai-chat');
  });
});

describe('the OpenAI SDK against chat faults', () => {
  const failure = async (promise: Promise<unknown>) => promise.catch((caught: unknown) => caught);

  it('raises RateLimitError 429 with code insufficient_quota for an exhausted quota', async () => {
    server.enqueue({ text: 'unused', fault: { kind: 'http_error', error: 'quota' } });
    const error = await failure(client().chat.completions.create({ model: 'gpt-test', messages }));
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('insufficient_quota');
    expect((error as InstanceType<typeof OpenAI.APIError>).requestID).toMatch(/^req_/);
  });

  it('raises RateLimitError 429 with code rate_limit_exceeded and both retry headers', async () => {
    server.enqueue({
      text: 'unused',
      fault: { kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 2, retryAfterMs: 1500 },
    });
    const error = await failure(client().chat.completions.create({ model: 'gpt-test', messages }));
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.code).toBe('rate_limit_exceeded');
    expect(apiError.headers?.get('retry-after')).toBe('2');
    expect(apiError.headers?.get('retry-after-ms')).toBe('1500');
  });

  it('raises BadRequestError 400 with code context_length_exceeded', async () => {
    server.enqueue({
      text: 'unused',
      fault: { kind: 'http_error', error: 'context_overflow', requestedTokens: 140_000, limitTokens: 128_000 },
    });
    const error = await failure(client().chat.completions.create({ model: 'gpt-test', messages, stream: true }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('context_length_exceeded');
    expect((error as Error).message).toContain('maximum context length is 128000 tokens');
  });

  it('throws the in-stream error chunk while iterating', async () => {
    server.enqueue({
      text: 'An answer that breaks off.',
      chunking: { textDelta: 3 },
      fault: { kind: 'mid_stream_error', afterEvents: 3, error: 'server', message: 'upstream failed' },
    });
    const stream = await client().chat.completions.create({ model: 'gpt-test', messages, stream: true });
    let text = '';
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toContain('upstream failed');
    expect(text).toBe('An ans');
  });
});

describe.skipIf(!providerStreamsDir)(`the OpenAI SDK against recorded chat streams (${fixturesSkipReason})`, () => {
  it('assembles a replayed xAI tool-call stream with reasoning and usage', async () => {
    server.enqueue({ replay: fixture('openai-chat/xai-tool-call.chunks.txt') });
    const completion = await client()
      .chat.completions.stream({ model: 'grok-3-mini', messages, stream_options: { include_usage: true } })
      .finalChatCompletion();
    expect(completion.choices[0]?.message.tool_calls).toMatchObject([
      {
        id: 'call_55117580',
        type: 'function',
        function: { name: 'weather', arguments: '{"location":"San Francisco"}' },
      },
    ]);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.usage).toMatchObject({ prompt_tokens: 291, completion_tokens: 26 });
  });

  it('iterates a replayed OpenAI text stream to its usage chunk and [DONE]', async () => {
    server.enqueue({ replay: fixture('openai-chat/openai-text.chunks.txt') });
    const stream = await client().chat.completions.create({ model: 'gpt-4.1-nano', messages, stream: true });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text.startsWith('**Holiday')).toBe(true);
    expect(usage?.completion_tokens).toBe(300);
    expect(usage?.prompt_tokens).toBe(16);
  });

  it('parses a replayed whole DeepSeek completion', async () => {
    server.enqueue({ replay: fixture('openai-chat/deepseek-tool-call.json') });
    const completion = await client().chat.completions.create({ model: 'deepseek-reasoner', messages });
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      id: 'call_00_9V0vrf86Pc9aelHCJMZqnJBo',
      function: { name: 'weather', arguments: '{"location": "San Francisco"}' },
    });
    expect(completion.usage?.prompt_tokens_details?.cached_tokens).toBe(320);
  });
});
