import { afterEach, describe, expect, it } from 'vitest';
import {
  CANARY_KEY,
  closeMocks,
  expectHelloResponse,
  expectNoCanary,
  helloRequest,
  MASKED_CANARY,
  mockBaseURL,
  onlyRequest,
  startHelloMock,
  streamOnce,
} from '../provider-row.test.helpers.js';
import { createProviderRegistry } from '../registry.js';
import { anthropicProvider } from './anthropic.js';

afterEach(closeMocks);

describe('the anthropic row', () => {
  it('posts /v1/messages with x-api-key and anthropic-version, and parses the stream', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({ providers: [anthropicProvider], env: { ANTHROPIC_API_KEY: CANARY_KEY } });
    const provider = registry.createProvider({
      provider: 'anthropic',
      baseURL: mockBaseURL(mock, anthropicProvider.baseURL),
    });
    const { events, response } = await streamOnce(provider, helloRequest('claude-sonnet-4-6'));

    expectHelloResponse(events, response);
    const request = onlyRequest(mock);
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe(MASKED_CANARY);
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.body).toMatchObject({ model: 'claude-sonnet-4-6', max_tokens: 256, stream: true });
    expect(provider.id).toBe('anthropic');
    expectNoCanary(events, response, mock.requests);
  });
});
