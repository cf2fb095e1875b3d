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
import { deepseekProvider } from './deepseek.js';

afterEach(closeMocks);

describe('the deepseek row', () => {
  it('echoes reasoning_content on tool-call turns, switches thinking with thinking.type, and parses the stream', async () => {
    const mock = await startHelloMock();
    const registry = createProviderRegistry({ providers: [deepseekProvider], env: { DEEPSEEK_API_KEY: CANARY_KEY } });
    const provider = registry.createProvider({
      provider: 'deepseek',
      baseURL: mockBaseURL(mock, deepseekProvider.baseURL),
    });
    const { events, response } = await streamOnce(
      provider,
      helloRequest('deepseek-reasoner', {
        thinking: { type: 'enabled', budgetTokens: 2048 },
        tools: [{ name: 'read', description: 'Reads a file', inputSchema: { type: 'object', properties: {} } }],
        messages: [
          { role: 'user', content: 'Read it' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'I should read the file.' },
              { type: 'tool_use', id: 'call_1', name: 'read', input: {} },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_1', content: 'port = 8000' }] },
        ],
      }),
    );

    expectHelloResponse(events, response);
    const request = onlyRequest(mock);
    expect(request.path).toBe('/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
    const body = request.body as {
      max_tokens?: number;
      thinking?: unknown;
      messages: { role: string; reasoning_content?: string }[];
    };
    expect(body.max_tokens).toBe(256);
    expect(body.thinking).toEqual({ type: 'enabled' });
    expect(body.messages.find((message) => message.role === 'assistant')?.reasoning_content).toBe(
      'I should read the file.',
    );
    expectNoCanary(events, response, mock.requests);
  });
});
