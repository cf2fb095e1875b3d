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
import { openaiCompatibleProvider } from './openai-compatible.js';

afterEach(closeMocks);

describe('the openai-compatible row', () => {
  it('needs a base URL, and says so as an error event', async () => {
    const registry = createProviderRegistry({ providers: [openaiCompatibleProvider], env: {} });
    const { events } = await streamOnce(registry.getProvider('openai-compatible'), helloRequest('any'));
    const last = events.at(-1);
    expect(last?.type === 'error' ? last.error.message : '').toBe(
      'Provider "openai-compatible" has no default address: pass `baseURL` (e.g. "http://127.0.0.1:8000/v1").',
    );
    expect(registry.list()[0]).toMatchObject({ configured: false, missing: ['baseURL'] });
  });

  it('talks to the given server with an optional key and conservative quirks, and parses the stream', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({
      providers: [openaiCompatibleProvider],
      env: { OPENAI_COMPATIBLE_API_KEY: CANARY_KEY },
    });
    const provider = registry.createProvider({ provider: 'openai-compatible', baseURL: `${mock.url}/api/v1` });
    const { events, response } = await streamOnce(provider, helloRequest('local-model'));

    expectHelloResponse(events, response);
    const request = onlyRequest(mock);
    expect(request.path).toBe('/api/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
    expect(request.body).toMatchObject({ max_tokens: 256 });
    expectNoCanary(events, response, mock.requests);
  });
});
