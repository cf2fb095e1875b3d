import { afterEach, describe, expect, it } from 'vitest';
import {
  CANARY_KEY,
  closeMocks,
  expectHelloResponse,
  expectNoCanary,
  helloRequest,
  MASKED_CANARY,
  onlyRequest,
  startHelloMock,
  streamOnce,
} from '../provider-row.test.helpers.js';
import { createProviderRegistry } from '../registry.js';
import { anthropicCompatibleProvider } from './anthropic-compatible.js';

afterEach(closeMocks);

describe('the anthropic-compatible row', () => {
  it('posts {baseURL}/v1/messages with the key as a bearer token, and parses the stream', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({
      providers: [anthropicCompatibleProvider],
      env: { ANTHROPIC_AUTH_TOKEN: CANARY_KEY },
    });
    const provider = registry.createProvider({ provider: 'anthropic-compatible', baseURL: `${mock.url}/anthropic` });
    const { events, response } = await streamOnce(provider, helloRequest('deepseek-v4-flash'));

    expectHelloResponse(events, response);
    const request = onlyRequest(mock);
    expect(request.path).toBe('/anthropic/v1/messages');
    expect(request.headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
    expect(request.headers['x-api-key']).toBeUndefined();
    expect(request.body).toMatchObject({ model: 'deepseek-v4-flash', max_tokens: 256, system: expect.anything() });
    expectNoCanary(events, response, mock.requests);
  });

  it('needs a base URL', () => {
    const registry = createProviderRegistry({ providers: [anthropicCompatibleProvider], env: {} });
    expect(registry.list()[0]).toMatchObject({
      configured: false,
      missing: ['baseURL'],
      credentialSource: 'not-needed',
    });
  });
});
