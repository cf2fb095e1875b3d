import { inspect } from 'node:util';
import { type MockFault, type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAnthropicMessagesProvider,
  createBedrockConverseProvider,
  createCohereProvider,
  createGeminiProvider,
  createOllamaProvider,
  createOpenAIChatProvider,
  createOpenAIResponsesProvider,
  isLlmError,
  type LlmProvider,
  type StreamEvent,
} from '../index.js';

// A server that echoes the credentials it was sent (in its error message, so in the body too) must
// not get them printed by any means: util.inspect with every hidden field, JSON, the stack, the
// cause chain, on every adapter and every error path. The canaries have no vendor key shape, so only
// masking the configured secrets themselves can hide them.

const KEY = 'canary-7f3a9c1e5b2d4f60a8e1';
const HEADER_SECRET = 'hdrcanary-90b1c2d3e4f5a6b7';
const echoed = `invalid credentials: key=${KEY} token=${HEADER_SECRET} (Bearer ${KEY})`;
const headers = { 'x-canary-token': HEADER_SECRET };

const adapters: Array<{ name: string; create: (url: string) => LlmProvider }> = [
  {
    name: 'anthropic-messages',
    create: (url) => createAnthropicMessagesProvider({ baseURL: url, apiKey: KEY, headers, retry: { maxRetries: 0 } }),
  },
  {
    name: 'openai-chat',
    create: (url) => createOpenAIChatProvider({ baseURL: `${url}/v1`, apiKey: KEY, headers, retry: { maxRetries: 0 } }),
  },
  {
    name: 'openai-responses',
    create: (url) =>
      createOpenAIResponsesProvider({ baseURL: `${url}/v1`, apiKey: KEY, headers, retry: { maxRetries: 0 } }),
  },
  {
    name: 'gemini',
    create: (url) => createGeminiProvider({ baseURL: `${url}/v1beta`, apiKey: KEY, headers, retry: { maxRetries: 0 } }),
  },
  {
    name: 'bedrock-converse',
    create: (url) =>
      createBedrockConverseProvider({
        baseURL: url,
        region: 'us-east-1',
        apiKey: KEY,
        headers,
        retry: { maxRetries: 0 },
      }),
  },
  {
    name: 'cohere-v2',
    create: (url) => createCohereProvider({ baseURL: url, apiKey: KEY, headers, retry: { maxRetries: 0 } }),
  },
  {
    name: 'ollama',
    create: (url) => createOllamaProvider({ baseURL: url, apiKey: KEY, headers, retry: { maxRetries: 0 } }),
  },
];

const faults: Array<{ name: string; fault: MockFault }> = [
  { name: 'auth error', fault: { kind: 'http_error', error: 'auth', message: echoed } },
  { name: 'invalid request', fault: { kind: 'http_error', error: 'invalid_request', message: echoed } },
  { name: 'server error', fault: { kind: 'http_error', error: 'server', message: echoed } },
  { name: 'mid-stream error', fault: { kind: 'mid_stream_error', afterEvents: 2, error: 'server', message: echoed } },
];

const request = { model: 'canary-model', maxOutputTokens: 64, messages: [{ role: 'user' as const, content: 'Hi' }] };

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer();
});

afterAll(async () => {
  await mock.close();
});

function expectNoCanary(value: unknown): void {
  const printed = [
    inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true, getters: true }),
    JSON.stringify(value),
    isLlmError(value)
      ? JSON.stringify({ body: value.body, url: value.url, stack: value.stack, message: value.message })
      : '',
  ].join('\n');
  expect(printed).not.toContain(KEY);
  expect(printed).not.toContain(HEADER_SECRET);
}

describe.each(adapters)('$name: no configured secret in any error', (adapter) => {
  it.each(faults)('streamed $name', async ({ fault }) => {
    mock.setScript({ steps: [{ text: 'a reply long enough to stream in several pieces', fault }], repeatLast: true });
    const events: StreamEvent[] = [];
    for await (const event of adapter.create(mock.url).streamMessage(request)) events.push(event);
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    if (last?.type === 'error') expect(last.error.message.length).toBeGreaterThan(0);
    expectNoCanary(events);
    expectNoCanary(last);
  });

  it.each(faults.filter((entry) => entry.fault.kind === 'http_error'))('createMessage $name', async ({ fault }) => {
    mock.setScript({ steps: [{ text: 'reply', fault }], repeatLast: true });
    const thrown = await adapter
      .create(mock.url)
      .createMessage(request)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isLlmError(thrown)).toBe(true);
    expectNoCanary(thrown);
  });
});
