import { startMockServer } from '@boxagnts/testkit';
import { describe, expect, it } from 'vitest';
import { fixture, providerStreamsDir } from '../../test/fixtures.js';
import { mockBaseURL, streamOnce } from '../provider-row.test.helpers.js';
import { perplexityProvider } from './perplexity.js';
import { contractRequest, describeRowContract, providerFromRow, replayTitle } from './row-contract.test.helpers.js';

// Perplexity: /chat/completions without /v1, max_tokens, reasoning_effort, usage in every chunk.
// @see https://docs.perplexity.ai/docs/sonar/openai-compatibility
describeRowContract(perplexityProvider, {
  model: 'sonar-deep-research',
  path: '/chat/completions',
  authHeader: 'authorization',
  streamedBody: { stream: true, max_tokens: 4096, reasoning_effort: 'low' },
  absentFields: ['stream_options', 'max_completion_tokens'],
  reasoningEcho: 'none',
});

describe('perplexity row', () => {
  it('lists models from the catalogue, not from an endpoint Perplexity does not have', async () => {
    const mock = await startMockServer();
    try {
      const provider = providerFromRow(perplexityProvider, { baseURL: mockBaseURL(mock, perplexityProvider.baseURL) });
      await provider.listModels();
      expect(mock.requests).toHaveLength(0);
    } finally {
      await mock.close();
    }
  });

  it.skipIf(providerStreamsDir === undefined)(
    replayTitle('parses a recorded Sonar stream with citations'),
    async () => {
      const replay = await startMockServer({
        script: { steps: [{ replay: fixture('openai-chat/perplexity-citations.chunks.txt') }] },
      });
      try {
        const provider = providerFromRow(perplexityProvider, {
          baseURL: mockBaseURL(replay, perplexityProvider.baseURL),
        });
        const { events, response } = await streamOnce(provider, contractRequest('sonar'));
        expect(events.at(-1)?.type).toBe('message-end');
        const text = response.message.content.find((block) => block.type === 'text');
        expect(text?.type === 'text' && text.text.length > 0).toBe(true);
        expect(response.usage.input.total).toBe(10);
      } finally {
        await replay.close();
      }
    },
  );
});
