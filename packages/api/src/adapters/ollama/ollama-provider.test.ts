import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaProvider, OLLAMA_DEFAULT_BASE_URL } from './ollama-provider.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ script: { steps: [{ text: 'ok' }], repeatLast: true } });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  mock.clearRequests();
});

describe('createOllamaProvider', () => {
  it('defaults to the local server and the protocol id', () => {
    const provider = createOllamaProvider();
    expect(provider.id).toBe('ollama');
    expect(provider.name).toBe('Ollama');
    expect(OLLAMA_DEFAULT_BASE_URL).toBe('http://127.0.0.1:11434');
  });

  it('takes a provider id, name, extra headers and an explicit key (for Ollama Cloud)', async () => {
    const provider = createOllamaProvider({
      baseURL: `${mock.url}/`,
      providerId: 'ollama-cloud',
      providerName: 'Ollama Cloud',
      apiKey: 'cloud-key-abcd1234',
      headers: { 'x-team': 't' },
      env: {},
    });
    expect(provider.id).toBe('ollama-cloud');
    const response = await provider.createMessage({
      model: 'gpt-oss:120b',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(response.message.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(mock.requests[0]?.headers).toMatchObject({ authorization: 'Bearer ***1234', 'x-team': 't' });
  });

  it('sends no key with noApiKey even when OLLAMA_API_KEY is set', async () => {
    await createOllamaProvider({
      baseURL: mock.url,
      noApiKey: true,
      env: { OLLAMA_API_KEY: 'k-123456789' },
    }).createMessage({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(mock.requests[0]?.headers.authorization).toBeUndefined();
  });
});
