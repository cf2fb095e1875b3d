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
import { resolveAdapterSettings } from '../resolve-adapter-settings.js';
import { ollamaProvider } from './ollama.js';

afterEach(closeMocks);

describe('the ollama row', () => {
  it('posts /api/chat without any auth header when no key is set, and parses the stream', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({ providers: [ollamaProvider], env: {} });
    const provider = registry.createProvider({
      provider: 'ollama',
      baseURL: mockBaseURL(mock, ollamaProvider.baseURL),
    });
    const { events, response } = await streamOnce(provider, helloRequest('qwen3:8b'));

    expectHelloResponse(events, response);
    const request = onlyRequest(mock);
    expect(request.path).toBe('/api/chat');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({ model: 'qwen3:8b', stream: true, options: { num_predict: 256 } });
    expect(registry.list()[0]).toMatchObject({ configured: true, credentialSource: 'not-needed' });
  });

  it('sends OLLAMA_API_KEY as a bearer token, and region cloud selects ollama.com', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({ providers: [ollamaProvider], env: { OLLAMA_API_KEY: CANARY_KEY } });
    const provider = registry.createProvider({ provider: 'ollama', baseURL: mock.url });
    const { events, response } = await streamOnce(provider, helloRequest('gpt-oss:120b'));
    expectHelloResponse(events, response);
    expect(onlyRequest(mock).headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
    expect(resolveAdapterSettings(ollamaProvider, { region: 'cloud' }, 'gpt-oss:120b', [], {}).baseURL).toBe(
      'https://ollama.com',
    );
    expectNoCanary(events, response, mock.requests, registry.list());
  });
});
