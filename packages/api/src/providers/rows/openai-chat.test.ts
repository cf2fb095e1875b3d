import { afterEach, describe, expect, it } from 'vitest';
import {
  CANARY_KEY,
  closeMocks,
  expectHelloResponse,
  helloRequest,
  MASKED_CANARY,
  mockBaseURL,
  onlyRequest,
  startHelloMock,
  streamOnce,
} from '../provider-row.test.helpers.js';
import { createProviderRegistry } from '../registry.js';
import { openaiChatProvider } from './openai-chat.js';

afterEach(closeMocks);

const env = { OPENAI_API_KEY: CANARY_KEY };

describe('the openai-chat row (Chat Completions)', () => {
  it('posts /v1/chat/completions with max_completion_tokens and stream_options', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({ providers: [openaiChatProvider], env });
    const provider = registry.createProvider({
      provider: 'openai-chat',
      baseURL: mockBaseURL(mock, openaiChatProvider.baseURL),
    });
    const { events, response } = await streamOnce(provider, helloRequest('gpt-4.1'));

    expectHelloResponse(events, response);
    const request = onlyRequest(mock);
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
    const body = request.body as Record<string, unknown>;
    expect(body).toMatchObject({ max_completion_tokens: 256, stream_options: { include_usage: true } });
    expect(body.max_tokens).toBeUndefined();
    expect((body.messages as { role: string }[])[0]?.role).toBe('system');
  });

  it('sends the system prompt with role developer to reasoning models', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({ providers: [openaiChatProvider], env });
    const provider = registry.createProvider({ provider: 'openai-chat', baseURL: `${mock.url}/v1` });
    await streamOnce(provider, helloRequest('o3-mini'));
    const body = onlyRequest(mock).body as { messages: { role: string }[] };
    expect(body.messages[0]?.role).toBe('developer');
  });
});
