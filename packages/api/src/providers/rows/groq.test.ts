import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, providerStreamsDir } from '../../test/fixtures.js';
import { mockBaseURL, streamOnce } from '../provider-row.test.helpers.js';
import { groqProvider } from './groq.js';
import {
  contractRequest,
  describeRowContract,
  providerFromRow,
  replayTitle,
  requestBody,
} from './row-contract.test.helpers.js';

// Groq: /openai/v1, max_completion_tokens, reasoning_effort (GPT-OSS), reasoning in `reasoning`.
// @see https://console.groq.com/docs/openai @see https://console.groq.com/docs/reasoning
describeRowContract(groqProvider, {
  model: 'openai/gpt-oss-120b',
  path: '/openai/v1/chat/completions',
  authHeader: 'authorization',
  streamedBody: { stream: true, max_completion_tokens: 4096, reasoning_effort: 'low' },
  absentFields: ['max_tokens', 'thinking', 'enable_thinking'],
  reasoningEcho: 'none',
});

describe('groq model quirks', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ script: { steps: [{ text: 'ok' }], repeatLast: true } });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('sends no reasoning_effort to Qwen 3, which takes only none/default', async () => {
    const provider = providerFromRow(groqProvider, { baseURL: mockBaseURL(mock, groqProvider.baseURL) });
    await streamOnce(provider, contractRequest('qwen/qwen3-32b'));
    expect(requestBody(mock)).not.toHaveProperty('reasoning_effort');
  });

  it.skipIf(providerStreamsDir === undefined)(replayTitle('parses a recorded Groq reasoning stream'), async () => {
    const replay = await startMockServer({
      script: { steps: [{ replay: fixture('openai-chat/groq-reasoning.chunks.txt') }] },
    });
    try {
      const provider = providerFromRow(groqProvider, { baseURL: mockBaseURL(replay, groqProvider.baseURL) });
      const { response } = await streamOnce(provider, contractRequest('qwen/qwen3-32b'));
      const [thinking, text] = response.message.content;
      expect(thinking?.type === 'thinking' && thinking.thinking.startsWith('Okay,')).toBe(true);
      expect(text?.type).toBe('text');
      expect(response.usage.output).toMatchObject({ total: 1107, reasoning: 963 });
    } finally {
      await replay.close();
    }
  });
});
