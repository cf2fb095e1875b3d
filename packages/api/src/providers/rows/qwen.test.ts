import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../spec/message.js';
import { fixture, providerStreamsDir } from '../../test/fixtures.js';
import { mockBaseURL, streamOnce } from '../provider-row.test.helpers.js';
import { qwenProvider } from './qwen.js';
import {
  chatMessages,
  contractRequest,
  describeRowContract,
  providerFromRow,
  replayTitle,
} from './row-contract.test.helpers.js';

// DashScope compatible mode: max_completion_tokens (2026 notice), enable_thinking + thinking_budget,
// stream_options documented. @see https://www.alibabacloud.com/help/en/model-studio/deep-thinking
describeRowContract(qwenProvider, {
  model: 'qwen-plus',
  path: '/compatible-mode/v1/chat/completions',
  authHeader: 'authorization',
  streamedBody: {
    stream: true,
    max_completion_tokens: 4096,
    enable_thinking: true,
    thinking_budget: 2048,
    stream_options: { include_usage: true },
  },
  absentFields: ['max_tokens', 'thinking', 'reasoning_effort'],
  reasoningEcho: 'none',
});

describe('qwen hosted interleaved-thinking models', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ script: { steps: [{ text: 'ok' }], repeatLast: true } });
  });
  afterAll(async () => {
    await mock.close();
  });

  it.each([
    ['kimi-k2.6', true],
    ['glm-5.1', true],
    ['qwen3-max', false],
  ])('%s: reasoning of a tool-call turn echoed: %s', async (model, echoed) => {
    mock.clearRequests();
    const history: Message[] = [
      { role: 'user', content: 'Read it' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Read first.' },
          { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'a' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_1', content: 'A' }] },
    ];
    const provider = providerFromRow(qwenProvider, { baseURL: mockBaseURL(mock, qwenProvider.baseURL) });
    await streamOnce(provider, contractRequest(model, history));
    const messages = chatMessages(mock);
    const assistant = messages.find((message) => message.role === 'assistant');
    expect(assistant?.reasoning_content).toBe(echoed ? 'Read first.' : undefined);
  });

  it.skipIf(providerStreamsDir === undefined)(replayTitle('parses a recorded DashScope tool-call stream'), async () => {
    const replay = await startMockServer({
      script: { steps: [{ replay: fixture('openai-chat/alibaba-tool-call.chunks.txt') }] },
    });
    try {
      const provider = providerFromRow(qwenProvider, { baseURL: mockBaseURL(replay, qwenProvider.baseURL) });
      const { response } = await streamOnce(provider, contractRequest('qwen3-max'));
      expect(response.message.content).toMatchObject([
        { type: 'tool_use', id: 'call_eee11723464a4b9eb8cee71d', name: 'weather' },
      ]);
      expect(response.finishReason.unified).toBe('tool-calls');
      expect(response.usage.input.total).toBe(295);
    } finally {
      await replay.close();
    }
  });
});
