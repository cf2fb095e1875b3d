import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMissingApiKeyError } from '../../spec/llm-error-classes.js';
import { collect, helloRequest, startLoopbackServer, testApiKey } from './cohere.test.helpers.js';
import { createCohereProvider } from './cohere-provider.js';

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ script: { steps: [{ text: 'ok' }], repeatLast: true } });
});

afterAll(async () => {
  await mock.close();
});

describe('createCohereProvider', () => {
  it('has the protocol id and a display name unless told otherwise', () => {
    expect(createCohereProvider()).toMatchObject({ id: 'cohere', name: 'Cohere' });
    expect(createCohereProvider({ providerId: 'cohere-eu', providerName: 'Cohere EU' })).toMatchObject({
      id: 'cohere-eu',
      name: 'Cohere EU',
    });
  });

  it('reads COHERE_API_KEY, then CO_API_KEY, when a request is made', async () => {
    const env: Record<string, string | undefined> = {};
    const provider = createCohereProvider({ baseURL: `${mock.url}/`, env, headers: { 'X-Client-Name': 'boxagnts' } });
    env.CO_API_KEY = 'co-key-0123456789abcd';
    mock.clearRequests();
    expect((await collect(provider)).at(-1)?.type).toBe('message-end');
    expect(mock.requests[0]?.headers.authorization).toBe('Bearer ***abcd');
    expect(mock.requests[0]?.headers['x-client-name']).toBe('boxagnts');
    env.COHERE_API_KEY = 'cohere-key-0123456789wxyz';
    await collect(provider);
    expect(mock.requests[1]?.headers.authorization).toBe('Bearer ***wxyz');
  });

  it('a missing key is one typed error event naming both variables', async () => {
    const events = await collect(createCohereProvider({ baseURL: mock.url, env: {} }));
    expect(events).toHaveLength(1);
    const error = events[0]?.type === 'error' ? events[0].error : undefined;
    expect(isMissingApiKeyError(error) && error.envVarNames).toEqual(['COHERE_API_KEY', 'CO_API_KEY']);
    await expect(
      createCohereProvider({ baseURL: mock.url, env: {} }).createMessage(helloRequest),
    ).rejects.toMatchObject({
      reason: 'auth',
    });
  });

  it('lists chat models from GET /v1/models, following page tokens', async () => {
    const server = await startLoopbackServer((request) => {
      const page = new URL(request.url, 'http://x').searchParams.get('page_token');
      return {
        status: 200,
        body: JSON.stringify(
          page === null
            ? {
                models: [{ name: 'command-a-03-2025', endpoints: ['chat'], context_length: 256000 }],
                next_page_token: 'p2',
              }
            : { models: [{ name: 'command-r7b-12-2024' }], next_page_token: '' },
        ),
      };
    });
    try {
      const provider = createCohereProvider({ baseURL: server.url, apiKey: testApiKey });
      expect(await provider.listModels()).toEqual([
        { id: 'command-a-03-2025', name: 'command-a-03-2025', contextWindow: 256000 },
        { id: 'command-r7b-12-2024', name: 'command-r7b-12-2024' },
      ]);
      expect(server.requests.map((request) => request.url)).toEqual([
        '/v1/models?endpoint=chat&page_size=1000',
        '/v1/models?endpoint=chat&page_size=1000&page_token=p2',
      ]);
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${testApiKey}`);
    } finally {
      await server.close();
    }
  });

  it('classifies a model-list error', async () => {
    const server = await startLoopbackServer(() => ({
      status: 401,
      body: JSON.stringify({ message: 'invalid api token' }),
    }));
    try {
      await expect(
        createCohereProvider({ baseURL: server.url, apiKey: testApiKey }).listModels(),
      ).rejects.toMatchObject({
        reason: 'auth',
        status: 401,
      });
    } finally {
      await server.close();
    }
  });
});
