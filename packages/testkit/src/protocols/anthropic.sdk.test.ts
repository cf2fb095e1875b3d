import Anthropic from '@anthropic-ai/sdk';
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

function client(): Anthropic {
  return new Anthropic({ baseURL: server.url, apiKey: 'sk-ant-test-key', maxRetries: 0 });
}

const params = {
  model: 'claude-test',
  max_tokens: 1024,
  messages: [{ role: 'user' as const, content: 'Read a.txt' }],
};

const toolTurn: MockTurn = {
  content: [
    { type: 'thinking', thinking: 'The user wants a file read.', signature: 'sig-abc' },
    { type: 'text', text: 'Reading a.txt for you.' },
    { type: 'tool_call', id: 'toolu_01', name: 'read', input: { path: 'a.txt', lines: [1, 20] } },
  ],
  usage: { input: 1294, output: 45, cacheRead: 1200, cacheWrite: 64, reasoning: 9 },
  chunking: { textDelta: 4, argumentsDelta: 5 },
};

const expectedContent = [
  { type: 'thinking', thinking: 'The user wants a file read.', signature: 'sig-abc' },
  { type: 'text', text: 'Reading a.txt for you.' },
  { type: 'tool_use', id: 'toolu_01', name: 'read', input: { path: 'a.txt', lines: [1, 20] } },
];

describe('the Anthropic SDK against scripted turns', () => {
  it('assembles a streamed message with thinking, text, a tool call, stop reason and usage', async () => {
    server.enqueue(toolTurn);
    const message = await client().messages.stream(params).finalMessage();
    expect(message.content).toEqual(expectedContent);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.model).toBe('claude-test');
    expect(message.usage).toMatchObject({
      input_tokens: 30,
      output_tokens: 45,
      cache_read_input_tokens: 1200,
      cache_creation_input_tokens: 64,
      output_tokens_details: { thinking_tokens: 9 },
    });
  });

  it('emits the text deltas it was sent', async () => {
    server.enqueue({ text: 'Hello there, friend.', chunking: { textDelta: 6 } });
    const pieces: string[] = [];
    const stream = client()
      .messages.stream(params)
      .on('text', (text) => pieces.push(text));
    const message = await stream.finalMessage();
    expect(pieces).toEqual(['Hello ', 'there,', ' frien', 'd.']);
    expect(message.stop_reason).toBe('end_turn');
  });

  it('parses a non-streamed message the same way', async () => {
    server.enqueue(toolTurn);
    const message = await client().messages.create(params);
    expect(message.content).toEqual(expectedContent);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage.cache_read_input_tokens).toBe(1200);
  });

  it('reports max_tokens and a redacted thinking block', async () => {
    server.enqueue({
      content: [
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy' },
        { type: 'text', text: 'Cut' },
      ],
      stopReason: 'max_tokens',
    });
    const message = await client().messages.stream(params).finalMessage();
    expect(message.content).toEqual([
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy' },
      { type: 'text', text: 'Cut' },
    ]);
    expect(message.stop_reason).toBe('max_tokens');
  });
});

describe('the Anthropic SDK against faults', () => {
  it('raises RateLimitError with status 429, retry-after and the request id', async () => {
    server.enqueue({ text: 'unused', fault: { kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 12 } });
    const error = await client()
      .messages.create(params)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    const apiError = error as InstanceType<typeof Anthropic.RateLimitError>;
    expect(apiError.status).toBe(429);
    expect(apiError.headers.get('retry-after')).toBe('12');
    expect(apiError.type).toBe('rate_limit_error');
    expect(apiError.requestID).toMatch(/^req_/);
    expect(apiError.requestID).toBe((apiError.error as { request_id?: string }).request_id);
  });

  it('raises a 529 overloaded error as InternalServerError', async () => {
    server.enqueue({ text: 'unused', fault: { kind: 'http_error', error: 'overloaded' } });
    const error = await client()
      .messages.stream(params)
      .finalMessage()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
    expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error');
  });

  it('raises BadRequestError with the credit-balance wording for an exhausted quota', async () => {
    server.enqueue({ text: 'unused', fault: { kind: 'http_error', error: 'quota' } });
    const error = await client()
      .messages.create(params)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.APIError>).apiMessage).toMatch(/credit balance is too low/);
  });

  it('raises the in-stream error event as an APIError of its type', async () => {
    server.enqueue({
      text: 'A long answer that will be interrupted part way.',
      chunking: { textDelta: 5 },
      fault: { kind: 'mid_stream_error', afterEvents: 4, error: 'overloaded' },
    });
    const error = await client()
      .messages.stream(params)
      .finalMessage()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error');
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBeUndefined();
  });
});

describe.skipIf(!providerStreamsDir)(`the Anthropic SDK against recorded responses (${fixturesSkipReason})`, () => {
  it('assembles a replayed tool-call stream', async () => {
    server.enqueue({ replay: fixture('anthropic-messages/anthropic-json-tool.1.chunks.txt') });
    const message = await client().messages.stream(params).finalMessage();
    expect(message.id).toBe('msg_01K2JbSUMYhez5RHoK9ZCj9U');
    expect(message.content).toEqual([
      {
        type: 'tool_use',
        id: 'toolu_01KFbKqPYSuAKujiL6mTfzYA',
        name: 'json',
        input: { elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] },
      },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage.output_tokens).toBe(47);
    expect(message.usage.input_tokens).toBe(849);
  });

  it('assembles a replayed thinking stream with its signature', async () => {
    server.enqueue({ replay: fixture('anthropic-messages/anthropic-clear-thinking.1.chunks.txt') });
    const message = await client().messages.stream(params).finalMessage();
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    const [thinking, text] = message.content;
    expect(thinking?.type === 'thinking' && thinking.thinking).toBe(
      'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185',
    );
    expect(thinking?.type === 'thinking' && thinking.signature).toMatch(/^EvQBCkYICxgCKkAxhD4N/);
    expect(text?.type === 'text' && text.text).toBe('925 ÷ 5 = 185');
    expect(message.usage.output_tokens).toBe(53);
  });

  it('parses a replayed whole message', async () => {
    server.enqueue({ replay: fixture('anthropic-messages/anthropic-text.json') });
    const message = await client().messages.create(params);
    expect(message.content).toEqual([
      {
        type: 'text',
        text: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
      },
    ]);
    expect(message.usage.output_tokens).toBe(29);
  });

  it('reports a replayed refusal', async () => {
    server.enqueue({ replay: fixture('anthropic-messages/anthropic-refusal.chunks.txt') });
    const message = await client().messages.stream(params).finalMessage();
    expect(message.stop_reason).toBe('refusal');
    expect(message.content).toEqual([]);
    expect(message.stop_details?.category).toBe('cyber');
  });
});
