import { afterEach, describe, expect, it } from 'vitest';
import {
  CANARY_KEY,
  closeMocks,
  expectHelloResponse,
  expectNoCanary,
  helloRequest,
  MASKED_CANARY,
  mockBaseURL,
  startHelloMock,
  streamOnce,
} from '../provider-row.test.helpers.js';
import { createProviderRegistry } from '../registry.js';
import { xaiProvider } from './xai.js';

afterEach(closeMocks);

const twoTurns = {
  steps: [
    { text: 'Hello from the mock.', usage: { input: 21, output: 6 } },
    { text: 'Hello from the mock.', usage: { input: 21, output: 6 } },
  ],
};

describe('the xai row', () => {
  it('sends reasoning_effort only to models that accept it, and parses the stream', async () => {
    const mock = await startHelloMock(twoTurns);
    const registry = createProviderRegistry({ providers: [xaiProvider], env: { XAI_API_KEY: CANARY_KEY } });
    const provider = registry.createProvider({ provider: 'xai', baseURL: mockBaseURL(mock, xaiProvider.baseURL) });
    const thinking = { type: 'effort', effort: 'high' } as const;

    const grok4 = await streamOnce(provider, helloRequest('grok-4', { thinking }));
    const mini = await streamOnce(provider, helloRequest('grok-3-mini', { thinking }));

    expectHelloResponse(grok4.events, grok4.response);
    expectHelloResponse(mini.events, mini.response);
    expect(mock.requests.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(mock.requests[0]?.headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
    const [first, second] = mock.requests.map((request) => request.body as Record<string, unknown>);
    expect(first?.reasoning_effort).toBeUndefined();
    expect(first?.max_tokens).toBe(256);
    expect(second?.reasoning_effort).toBe('high');
    expectNoCanary(grok4, mini, mock.requests);
  });
});
