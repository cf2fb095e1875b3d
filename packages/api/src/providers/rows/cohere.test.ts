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
import { cohereProvider } from './cohere.js';

afterEach(closeMocks);

describe('the cohere row', () => {
  it('posts /v2/chat with a bearer key from CO_API_KEY and parses the stream', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({ providers: [cohereProvider], env: { CO_API_KEY: CANARY_KEY } });
    const provider = registry.createProvider({
      provider: 'cohere',
      baseURL: mockBaseURL(mock, cohereProvider.baseURL),
    });
    const { events, response } = await streamOnce(provider, helloRequest('command-a-03-2025'));

    expectHelloResponse(events, response);
    const request = onlyRequest(mock);
    expect(request.path).toBe('/v2/chat');
    expect(request.headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
    expect(request.body).toMatchObject({ model: 'command-a-03-2025', max_tokens: 256, stream: true });
    expectNoCanary(events, response, mock.requests);
  });
});
