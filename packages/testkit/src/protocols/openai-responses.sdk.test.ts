import OpenAI from 'openai';
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

const params = { model: 'gpt-test', input: 'Read a.txt' };

const toolTurn: MockTurn = {
  content: [
    { type: 'thinking', thinking: 'The user wants a.txt.', signature: 'gAAAA-encrypted' },
    { type: 'text', text: 'Reading it now.' },
    { type: 'tool_call', id: 'call_read', name: 'read', input: { path: 'a.txt' } },
  ],
  usage: { input: 300, output: 50, cacheRead: 256, cacheWrite: 0, reasoning: 12 },
  chunking: { textDelta: 4, argumentsDelta: 5 },
};

const expectedUsage = {
  input_tokens: 300,
  input_tokens_details: { cached_tokens: 256 },
  output_tokens: 50,
  output_tokens_details: { reasoning_tokens: 12 },
  total_tokens: 350,
};

describe('the OpenAI SDK against scripted responses', () => {
  it('assembles a streamed response with reasoning, text, a function call and usage', async () => {
    server.enqueue(toolTurn);
    const stream = client().responses.stream(params);
    const textDeltas: string[] = [];
    stream.on('response.output_text.delta', (event) => textDeltas.push(event.delta));
    const response = await stream.finalResponse();
    expect(response.status).toBe('completed');
    expect(response.output_text).toBe('Reading it now.');
    expect(textDeltas).toEqual(['Read', 'ing ', 'it n', 'ow.']);
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call']);
    const [reasoning, , call] = response.output;
    expect(reasoning).toMatchObject({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'The user wants a.txt.' }],
      encrypted_content: 'gAAAA-encrypted',
    });
    expect(call).toMatchObject({
      type: 'function_call',
      call_id: 'call_read',
      name: 'read',
      arguments: '{"path":"a.txt"}',
    });
    expect(response.usage).toMatchObject(expectedUsage);
  });

  it('streams raw events in order with sequence numbers', async () => {
    server.enqueue({ text: 'Hi.' });
    const stream = await client().responses.create({ ...params, stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('parses a non-streamed response the same way', async () => {
    server.enqueue(toolTurn);
    const response = await client().responses.create(params);
    expect(response.output_text).toBe('Reading it now.');
    expect(response.output.at(-1)).toMatchObject({ type: 'function_call', call_id: 'call_read', name: 'read' });
    expect(response.usage).toMatchObject(expectedUsage);
  });

  it('reports a response cut at the token limit as incomplete', async () => {
    server.enqueue({ text: 'Partial', stopReason: 'max_tokens' });
    const response = await client().responses.stream(params).finalResponse();
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details?.reason).toBe('max_output_tokens');
    expect(response.output_text).toBe('Partial');
  });
});

describe('the OpenAI SDK against Responses faults', () => {
  const failure = async (promise: Promise<unknown>) => promise.catch((caught: unknown) => caught);

  it('raises RateLimitError 429 with code insufficient_quota for an exhausted quota', async () => {
    server.enqueue({ text: 'unused', fault: { kind: 'http_error', error: 'quota' } });
    const error = await failure(client().responses.create(params));
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('insufficient_quota');
  });

  it('raises InternalServerError 503 for an overload', async () => {
    server.enqueue({ text: 'unused', fault: { kind: 'http_error', error: 'overloaded', retryAfterMs: 250 } });
    const error = await failure(client().responses.stream(params).finalResponse());
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after-ms')).toBe('250');
  });

  it('ends a failing stream with the error event carrying the error code', async () => {
    server.enqueue({
      text: 'An answer that breaks off.',
      chunking: { textDelta: 4 },
      fault: { kind: 'mid_stream_error', afterEvents: 5, error: 'rate_limit' },
    });
    const stream = await client().responses.create({ ...params, stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    if (last?.type !== 'error') return;
    expect(last.code).toBe('rate_limit_exceeded');
    expect(last.message).toMatch(/^Rate limit reached for gpt-test/);
    expect(events.filter((event) => event.type === 'response.output_text.delta')).toHaveLength(1);
    expect(events.some((event) => event.type === 'response.completed')).toBe(false);
  });
});

describe.skipIf(!providerStreamsDir)(
  `the OpenAI SDK against recorded Responses streams (${fixturesSkipReason})`,
  () => {
    it('assembles a replayed custom tool call', async () => {
      server.enqueue({ replay: fixture('openai-responses/openai-custom-tool.1.chunks.txt') });
      const response = await client().responses.stream(params).finalResponse();
      expect(response.id).toBe('resp_custom_tool_test_001');
      expect(response.output).toMatchObject([
        {
          type: 'custom_tool_call',
          call_id: 'call_custom_sql_001',
          name: 'write_sql',
          input: 'SELECT * FROM users WHERE age > 25',
        },
      ]);
      expect(response.usage).toMatchObject({ input_tokens: 50, output_tokens: 20, total_tokens: 70 });
    });

    it('iterates a replayed reasoning recording with encrypted content and function calls', async () => {
      server.enqueue({ replay: fixture('openai-responses/openai-reasoning-encrypted-content.1.chunks.txt') });
      const stream = await client().responses.create({ ...params, stream: true });
      const done: OpenAI.Responses.ResponseOutputItem[] = [];
      let completed = 0;
      for await (const event of stream) {
        if (event.type === 'response.output_item.done') done.push(event.item);
        if (event.type === 'response.completed') completed += 1;
      }
      expect(completed).toBe(4);
      const reasoning = done.find((item) => item.type === 'reasoning');
      expect(reasoning?.type === 'reasoning' && reasoning.encrypted_content?.startsWith('gAAAAA')).toBe(true);
      const calls = done.flatMap((item) => (item.type === 'function_call' ? [JSON.parse(item.arguments)] : []));
      expect(calls).toEqual([
        { a: 12, b: 7, op: 'add' },
        { a: 19, b: 3, op: 'multiply' },
        { a: 57, b: 10, op: 'multiply' },
      ]);
      const message = done.at(-1);
      expect(message?.type === 'message' && message.content[0]?.type === 'output_text' && message.content[0].text).toBe(
        'The final result is **570**.',
      );
    });
  },
);
