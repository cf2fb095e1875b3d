import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LlmRequest } from '../../spec/request.js';
import { createGeminiProvider, GEMINI_DEFAULT_BASE_URL, vertexBaseUrl } from './gemini-provider.js';

const request: LlmRequest = {
  model: 'models/gemini-2.5-flash',
  messages: [{ role: 'user', content: 'Hi' }],
  metadata: { team: 'a' },
};
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

describe('vertexBaseUrl', () => {
  it('uses the regional host, or the global one', () => {
    expect(vertexBaseUrl('my-project', 'us-central1')).toBe(
      'https://us-central1-aiplatform.googleapis.com/v1/projects/my-project/locations/us-central1/publishers/google',
    );
    expect(vertexBaseUrl('my-project', 'global')).toBe(
      'https://aiplatform.googleapis.com/v1/projects/my-project/locations/global/publishers/google',
    );
    expect(GEMINI_DEFAULT_BASE_URL).toBe('https://generativelanguage.googleapis.com/v1beta');
  });
});

describe('createGeminiProvider', () => {
  it('has the protocol id by default and sends the key in x-goog-api-key, read from the environment at request time', async () => {
    const env: Record<string, string | undefined> = {};
    const provider = createGeminiProvider({ baseURL: `${mock.url}/v1beta/`, env, headers: { 'x-extra': '1' } });
    expect(provider.id).toBe('gemini');
    expect(provider.name).toBe('Google Gemini');
    env.GOOGLE_API_KEY = 'from-env-key-abcdef';
    await provider.createMessage(request, { headers: { 'x-call': '2' } });
    const sent = mock.requests[0];
    expect(sent?.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(sent?.headers).toMatchObject({ 'x-goog-api-key': '***cdef', 'x-extra': '1', 'x-call': '2' });
    expect(sent?.headers.authorization).toBeUndefined();
    expect((sent?.body as Record<string, unknown> | undefined)?.labels).toBeUndefined();
  });

  it('sends no credentials with noApiKey', async () => {
    await createGeminiProvider({ baseURL: `${mock.url}/v1beta`, noApiKey: true, env: {} }).createMessage(request);
    expect(mock.requests[0]?.headers['x-goog-api-key']).toBeUndefined();
  });

  it('in Vertex mode sends a Bearer token from a function, and metadata as labels', async () => {
    let calls = 0;
    const provider = createGeminiProvider({
      baseURL: `${mock.url}/v1/projects/p1/locations/us-central1/publishers/google`,
      vertex: { project: 'p1', location: 'us-central1', accessToken: async () => `ya29.token-${++calls}-abcdefgh` },
    });
    expect(provider.name).toBe('Google Vertex AI');
    await provider.createMessage(request);
    await provider.createMessage(request);
    expect(calls).toBe(2);
    expect(mock.requests[1]?.path).toBe(
      '/v1/projects/p1/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent',
    );
    expect(mock.requests[1]?.headers.authorization).toBe('Bearer ***efgh');
    expect((mock.requests[1]?.body as Record<string, unknown> | undefined)?.labels).toEqual({ team: 'a' });
  });

  it('in Vertex mode reads the token from GOOGLE_VERTEX_ACCESS_TOKEN, and says so when it is missing', async () => {
    const settings = {
      baseURL: `${mock.url}/v1/projects/p/locations/global/publishers/google`,
      vertex: { project: 'p', location: 'global' },
    };
    await createGeminiProvider({
      ...settings,
      env: { GOOGLE_VERTEX_ACCESS_TOKEN: 'ya29.env-token-wxyz' },
    }).createMessage(request);
    expect(mock.requests[0]?.headers.authorization).toBe('Bearer ***wxyz');
    await expect(createGeminiProvider({ ...settings, env: {} }).createMessage(request)).rejects.toThrow(
      /vertex\.accessToken.*GOOGLE_VERTEX_ACCESS_TOKEN/,
    );
  });
});

describe('listModels', () => {
  it('follows nextPageToken on the Gemini API and keeps only generateContent models', async () => {
    const pages: Record<string, unknown> = {
      '': {
        models: [{ name: 'models/gemini-a', displayName: 'A', inputTokenLimit: 10, outputTokenLimit: 5 }],
        nextPageToken: 'p2',
      },
      p2: {
        models: [
          { name: 'models/embedding-1', supportedGenerationMethods: ['embedContent'] },
          { name: 'models/gemini-b', supportedGenerationMethods: ['generateContent', 'countTokens'] },
        ],
      },
    };
    const server = await jsonServer(
      (incoming) => pages[new URL(incoming.url ?? '/', 'http://x').searchParams.get('pageToken') ?? ''],
    );
    try {
      const models = await createGeminiProvider({
        baseURL: `${server.url}/v1beta`,
        apiKey: 'key-123456789',
      }).listModels();
      expect(models).toEqual([
        { id: 'gemini-a', name: 'A', contextWindow: 10, maxOutputTokens: 5 },
        { id: 'gemini-b' },
      ]);
      expect(server.urls).toEqual(['/v1beta/models?pageSize=1000', '/v1beta/models?pageSize=1000&pageToken=p2']);
    } finally {
      await server.close();
    }
  });

  it('lists Vertex publisher models on v1beta1, billed to the project', async () => {
    const server = await jsonServer(() => ({
      publisherModels: [
        { name: 'publishers/google/models/gemini-2.5-pro' },
        { name: 'publishers/google/models/gemini-3-pro-preview' },
      ],
    }));
    try {
      const provider = createGeminiProvider({
        baseURL: `${server.url}/v1/projects/p9/locations/global/publishers/google`,
        vertex: { project: 'p9', location: 'global', accessToken: 'ya29.token' },
      });
      expect(await provider.listModels()).toEqual([{ id: 'gemini-2.5-pro' }, { id: 'gemini-3-pro-preview' }]);
      expect(server.urls).toEqual(['/v1beta1/publishers/google/models?pageSize=100']);
      expect(server.headers[0]?.['x-goog-user-project']).toBe('p9');
      expect(server.headers[0]?.authorization).toBe('Bearer ya29.token');
    } finally {
      await server.close();
    }
  });
});

async function jsonServer(answer: (incoming: IncomingMessage) => unknown) {
  const urls: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const server = createServer((incoming, outgoing) => {
    urls.push(incoming.url ?? '');
    headers.push(incoming.headers);
    outgoing.writeHead(200, { 'content-type': 'application/json' });
    outgoing.end(JSON.stringify(answer(incoming) ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    urls,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
