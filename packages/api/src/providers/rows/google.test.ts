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
import { googleProvider } from './google.js';

afterEach(closeMocks);

describe('the google row (Gemini API)', () => {
  it('streams from /v1beta/models/{model}:streamGenerateContent with x-goog-api-key', async () => {
    const mock = await startHelloMock();
    // The Vercel AI SDK's variable, second in the alias list, is found too.
    const registry = createProviderRegistry({
      providers: [googleProvider],
      env: { GOOGLE_GENERATIVE_AI_API_KEY: CANARY_KEY },
    });
    const provider = registry.createProvider({
      provider: 'google',
      baseURL: mockBaseURL(mock, googleProvider.baseURL),
    });
    const { events, response } = await streamOnce(provider, helloRequest('gemini-2.5-flash'));

    expectHelloResponse(events, response);
    const request = onlyRequest(mock);
    expect(request.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    expect(request.query).toEqual({ alt: 'sse' });
    expect(request.headers['x-goog-api-key']).toBe(MASKED_CANARY);
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({
      systemInstruction: { parts: [{ text: 'You are terse.' }] },
      generationConfig: { maxOutputTokens: 256 },
    });
    expectNoCanary(events, response, mock.requests);
  });
});
