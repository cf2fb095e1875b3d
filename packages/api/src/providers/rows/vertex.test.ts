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
import { resolveAdapterSettings } from '../resolve-adapter-settings.js';
import { vertexProvider } from './vertex.js';

afterEach(closeMocks);

describe('the vertex row (Gemini on Vertex AI)', () => {
  it('takes project and location from the environment, location us-central1 by default', () => {
    const settings = resolveAdapterSettings(vertexProvider, {}, 'gemini-2.5-flash', [], { GOOGLE_CLOUD_PROJECT: 'p1' });
    expect(settings.vertex).toEqual({ project: 'p1', location: 'us-central1' });
    const explicit = resolveAdapterSettings(
      vertexProvider,
      { parameters: { project: 'p2', location: 'global' } },
      'gemini-2.5-flash',
      [],
      {},
    );
    expect(explicit.vertex).toEqual({ project: 'p2', location: 'global' });
  });

  it('streams from the publisher model path with the token as a bearer', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({
      providers: [vertexProvider],
      env: { GOOGLE_VERTEX_ACCESS_TOKEN: CANARY_KEY, GOOGLE_VERTEX_PROJECT: 'acme-project' },
    });
    const provider = registry.createProvider({
      provider: 'vertex',
      baseURL: `${mock.url}/v1/projects/{project}/locations/{location}/publishers/google`,
    });
    const { events, response } = await streamOnce(provider, helloRequest('gemini-2.5-flash'));

    expectHelloResponse(events, response);
    const request = onlyRequest(mock);
    expect(request.path).toBe(
      '/v1/projects/acme-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent',
    );
    expect(request.headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
    expect(request.headers['x-goog-api-key']).toBeUndefined();
    expectNoCanary(events, response, mock.requests);
  });

  it('uses a token function passed in settings over the environment', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({ providers: [vertexProvider], env: { GOOGLE_VERTEX_PROJECT: 'p' } });
    const provider = registry.createProvider({
      provider: 'vertex',
      baseURL: `${mock.url}/v1/projects/{project}/locations/{location}/publishers/google`,
      settings: { vertex: { accessToken: async () => CANARY_KEY } },
    });
    const { events, response } = await streamOnce(provider, helloRequest('gemini-2.5-pro'));
    expectHelloResponse(events, response);
    expect(onlyRequest(mock).headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
  });
});
