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
import { openaiProvider } from './openai.js';

afterEach(closeMocks);

const env = { OPENAI_API_KEY: CANARY_KEY };

describe('the openai row (Responses API)', () => {
  it('posts /v1/responses statelessly with a bearer key and parses the stream', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({ providers: [openaiProvider], env });
    const provider = registry.createProvider({
      provider: 'openai',
      baseURL: mockBaseURL(mock, openaiProvider.baseURL),
    });
    const { events, response } = await streamOnce(provider, helloRequest('gpt-5'));

    expectHelloResponse(events, response);
    const request = onlyRequest(mock);
    expect(request.path).toBe('/v1/responses');
    expect(request.headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
    expect(request.body).toMatchObject({ model: 'gpt-5', store: false, max_output_tokens: 256, stream: true });
    expectNoCanary(events, response, mock.requests);
  });
});
