import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../spec/message.js';
import { mockBaseURL, streamOnce } from '../provider-row.test.helpers.js';
import { openrouterProvider } from './openrouter.js';
import { chatMessages, contractRequest, describeRowContract, providerFromRow } from './row-contract.test.helpers.js';

// OpenRouter: optional attribution headers, reasoning {max_tokens}, `reasoning` read, reasoning_details echoed.
// @see https://openrouter.ai/docs/app-attribution @see https://openrouter.ai/docs/use-cases/reasoning-tokens
describeRowContract(openrouterProvider, {
  model: 'deepseek/deepseek-v3.2',
  path: '/api/v1/chat/completions',
  authHeader: 'authorization',
  headers: { 'http-referer': 'https://www.npmjs.com/package/@boxagnts/api', 'x-title': 'BoxAgnts' },
  streamedBody: { stream: true, max_tokens: 4096, reasoning: { max_tokens: 2048 } },
  absentFields: ['max_completion_tokens', 'reasoning_effort', 'thinking'],
  reasoningEcho: 'none',
});

const history = (id: string): Message[] => [
  { role: 'user', content: 'Read it' },
  {
    role: 'assistant',
    content: [{ type: 'tool_use', id, name: 'read_file', input: { path: 'a' } }],
    providerMetadata: { 'openai-chat': { reasoning_details: [{ type: 'reasoning.encrypted', data: 'opaque' }] } },
  },
  { role: 'user', content: [{ type: 'tool_result', toolUseId: id, content: 'A' }] },
];

describe('openrouter row', () => {
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

  it('lets the attribution headers be replaced', async () => {
    const provider = providerFromRow(openrouterProvider, {
      baseURL: mockBaseURL(mock, openrouterProvider.baseURL),
      headers: { 'HTTP-Referer': 'https://example.com/app', 'X-Title': 'My App' },
    });
    await streamOnce(provider, contractRequest('openrouter/auto'));
    expect(mock.requests[0]?.headers).toMatchObject({ 'http-referer': 'https://example.com/app', 'x-title': 'My App' });
  });

  it.each([
    ['anthropic/claude-sonnet-4.5', /^[a-zA-Z0-9_-]+$/],
    ['mistralai/mistral-large', /^[a-zA-Z0-9]{9}$/],
    ['openai/gpt-5', /^functions\.read_file:0$/],
  ])(
    '%s: tool-call ids valid for the vendor, the same on call and result; reasoning_details echoed',
    async (model, pattern) => {
      const provider = providerFromRow(openrouterProvider, { baseURL: mockBaseURL(mock, openrouterProvider.baseURL) });
      await streamOnce(provider, contractRequest(model, history('functions.read_file:0')));
      const messages = chatMessages(mock);
      const assistant = messages.find((message) => message.role === 'assistant') as {
        tool_calls: Array<{ id: string }>;
        reasoning_details: unknown;
      };
      const tool = messages.find((message) => message.role === 'tool') as { tool_call_id: string };
      expect(assistant.tool_calls[0]?.id).toMatch(pattern);
      expect(tool.tool_call_id).toBe(assistant.tool_calls[0]?.id);
      expect(assistant.reasoning_details).toEqual([{ type: 'reasoning.encrypted', data: 'opaque' }]);
    },
  );
});
