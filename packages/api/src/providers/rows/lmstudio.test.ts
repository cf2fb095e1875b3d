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
import { lmstudioProvider } from './lmstudio.js';

afterEach(closeMocks);

describe('the lmstudio row', () => {
  it('posts /v1/chat/completions with no key and max_tokens, and parses the stream', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({ providers: [lmstudioProvider], env: {} });
    const provider = registry.createProvider({
      provider: 'lmstudio',
      baseURL: mockBaseURL(mock, lmstudioProvider.baseURL),
    });
    const { events, response } = await streamOnce(provider, helloRequest('openai/gpt-oss-20b'));

    expectHelloResponse(events, response);
    const request = onlyRequest(mock);
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({ model: 'openai/gpt-oss-20b', max_tokens: 256 });
  });

  it('sends LM_API_TOKEN as a bearer token when authentication is required', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({ providers: [lmstudioProvider], env: { LM_API_TOKEN: CANARY_KEY } });
    const provider = registry.createProvider({ provider: 'lmstudio', baseURL: `${mock.url}/v1` });
    const { events, response } = await streamOnce(provider, helloRequest('openai/gpt-oss-20b'));
    expectHelloResponse(events, response);
    expect(onlyRequest(mock).headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
    expectNoCanary(events, response, mock.requests);
  });
});
