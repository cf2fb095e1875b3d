import { describe, expect, it } from 'vitest';
import { minimaxProvider } from './minimax.js';
import { describeRowContract } from './row-contract.test.helpers.js';

// MiniMax over Anthropic Messages: x-api-key (ANTHROPIC_API_KEY in its docs), the whole assistant
// content replayed, temperature 1 recommended. @see https://platform.minimax.io/docs/api-reference/text-anthropic-api
describeRowContract(minimaxProvider, {
  model: 'MiniMax-M2.7',
  path: '/anthropic/v1/messages',
  authHeader: 'x-api-key',
  streamedBody: { stream: true, max_tokens: 4096, temperature: 1, thinking: { type: 'enabled', budget_tokens: 2048 } },
  headers: { 'anthropic-version': '2023-06-01' },
  reasoningEcho: 'thinking-block',
});

describe('minimax row', () => {
  it('is the Anthropic-compatible endpoint, international by default with a China region', () => {
    expect(minimaxProvider.adapter).toBe('anthropic-messages');
    expect(minimaxProvider.baseURL).toBe('https://api.minimax.io/anthropic');
    expect(minimaxProvider.regionalBaseURLs?.china).toBe('https://api.minimaxi.com/anthropic');
  });
});
