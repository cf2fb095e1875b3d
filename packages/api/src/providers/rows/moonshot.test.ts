import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, providerStreamsDir } from '../../test/fixtures.js';
import { mockBaseURL, streamOnce } from '../provider-row.test.helpers.js';
import { moonshotProvider } from './moonshot.js';
import {
  contractRequest,
  describeRowContract,
  providerFromRow,
  replayTitle,
  requestBody,
} from './row-contract.test.helpers.js';

// Kimi: max_completion_tokens, thinking {type} for K2.5+, reasoning_content required on tool-call turns.
// @see https://platform.kimi.ai/docs/api/chat @see https://platform.kimi.ai/docs/api/models-overview
describeRowContract(moonshotProvider, {
  model: 'kimi-k2.6',
  path: '/v1/chat/completions',
  authHeader: 'authorization',
  streamedBody: {
    stream: true,
    max_completion_tokens: 4096,
    thinking: { type: 'enabled' },
    stream_options: { include_usage: true },
  },
  absentFields: ['max_tokens', 'temperature', 'reasoning_effort'],
  reasoningEcho: 'reasoning_content',
});

describe('moonshot model quirks', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ script: { steps: [{ text: 'ok' }], repeatLast: true } });
  });
  afterAll(async () => {
    await mock.close();
  });

  it.each([
    ['kimi-k2.6', undefined, { type: 'enabled' }],
    ['kimi-k2-0905-preview', 0.6, undefined],
    ['kimi-k2-turbo-preview', 0.6, undefined],
    ['kimi-k2-thinking', 1, undefined],
    ['moonshot-v1-8k', undefined, undefined],
  ])('%s: default temperature %s, thinking switch %j', async (model, temperature, thinking) => {
    mock.clearRequests();
    const provider = providerFromRow(moonshotProvider, { baseURL: mockBaseURL(mock, moonshotProvider.baseURL) });
    await streamOnce(provider, contractRequest(model));
    const body = requestBody(mock);
    expect(body.temperature).toBe(temperature);
    expect(body.thinking).toEqual(thinking);
  });

  it('keeps an explicit temperature', async () => {
    mock.clearRequests();
    const provider = providerFromRow(moonshotProvider, { baseURL: mockBaseURL(mock, moonshotProvider.baseURL) });
    await streamOnce(provider, { ...contractRequest('kimi-k2-0905-preview'), temperature: 0.2 });
    expect(requestBody(mock).temperature).toBe(0.2);
  });

  it.skipIf(providerStreamsDir === undefined)(replayTitle('parses a recorded Kimi stream'), async () => {
    const replay = await startMockServer({
      script: { steps: [{ replay: fixture('openai-chat/moonshotai-stream.chunks.txt') }] },
    });
    try {
      const provider = providerFromRow(moonshotProvider, { baseURL: mockBaseURL(replay, moonshotProvider.baseURL) });
      const { response } = await streamOnce(provider, contractRequest('kimi-k3'));
      expect(response.message.content).toMatchObject([
        { type: 'thinking', thinking: 'Thinking aloud. ' },
        { type: 'text', text: 'Hello!' },
      ]);
      expect(response.usage.output).toMatchObject({ total: 12, reasoning: 7 });
    } finally {
      await replay.close();
    }
  });
});
