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
import { vllmProvider } from './vllm.js';

afterEach(closeMocks);

describe('the vllm row', () => {
  it('posts /v1/chat/completions with max_tokens and no key unless VLLM_API_KEY is set, and parses the stream', async () => {
    const mock = await startHelloMock();
    const keyless = createProviderRegistry({ providers: [vllmProvider], env: {} });
    const provider = keyless.createProvider({ provider: 'vllm', baseURL: mockBaseURL(mock, vllmProvider.baseURL) });
    const { events, response } = await streamOnce(provider, helloRequest('Qwen/Qwen3-8B'));

    expectHelloResponse(events, response);
    const request = onlyRequest(mock);
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({ model: 'Qwen/Qwen3-8B', max_tokens: 256 });

    const keyed = createProviderRegistry({ providers: [vllmProvider], env: { VLLM_API_KEY: CANARY_KEY } });
    mock.setScript({ steps: [{ text: 'Hello from the mock.', usage: { input: 1, output: 1 } }] });
    mock.clearRequests();
    await streamOnce(keyed.createProvider({ provider: 'vllm', baseURL: `${mock.url}/v1` }), helloRequest('m'));
    expect(onlyRequest(mock).headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
    expectNoCanary(mock.requests);
  });
});
