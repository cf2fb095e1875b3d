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
import { mistralProvider } from './mistral.js';

afterEach(closeMocks);

describe('the mistral row', () => {
  it('rewrites tool-call ids to 9 alphanumerics, sends max_tokens without stream_options, and parses the stream', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({ providers: [mistralProvider], env: { MISTRAL_API_KEY: CANARY_KEY } });
    const provider = registry.createProvider({
      provider: 'mistral',
      baseURL: mockBaseURL(mock, mistralProvider.baseURL),
    });
    const { events, response } = await streamOnce(
      provider,
      helloRequest('mistral-large-latest', {
        tools: [{ name: 'read', description: 'Reads a file', inputSchema: { type: 'object', properties: {} } }],
        messages: [
          { role: 'user', content: 'Read it' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'read', input: {} }],
          },
          {
            role: 'user',
            content: [{ type: 'tool_result', toolUseId: 'toolu_01A09q90qw90lq917835lq9', content: 'port = 8000' }],
          },
        ],
      }),
    );

    // The mock sends a Chat Completions usage chunk only when asked with stream_options, which this
    // row never sends (Mistral refuses it and puts usage on its last chunk instead).
    expectHelloResponse(events, response, { usage: false });
    const request = onlyRequest(mock);
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
    const body = request.body as {
      max_tokens?: number;
      max_completion_tokens?: number;
      stream_options?: unknown;
      messages: { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[];
    };
    expect(body.max_tokens).toBe(256);
    expect(body.max_completion_tokens).toBeUndefined();
    expect(body.stream_options).toBeUndefined();
    const callId = body.messages.find((message) => message.role === 'assistant')?.tool_calls?.[0]?.id;
    expect(callId).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(body.messages.find((message) => message.role === 'tool')?.tool_call_id).toBe(callId);
    expectNoCanary(events, response, mock.requests);
  });
});
