import type { ProviderEntry } from '../provider-entry.js';

/**
 * MiniMax (M-series models) through its Anthropic-compatible Messages endpoint, the default for
 * MiniMax: it is the endpoint MiniMax documents for its reasoning models and the one that returns
 * the reasoning as separate `thinking` blocks. Its OpenAI-compatible endpoint
 * (`https://api.minimax.io/v1`) returns the reasoning inline in `content` inside `<think>` tags for
 * most models, which would have to be parsed back out.
 *
 * - Base URL without `/v1`: `api.minimax.io` (international) by default, `api.minimaxi.com` with
 *   `region: 'china'` (its own keys). @see https://platform.minimax.io/docs/api-reference/text-anthropic-api
 *   @see https://platform.minimaxi.com/docs/api-reference/text-anthropic-api
 * - Auth: the docs set `ANTHROPIC_API_KEY` for the Anthropic SDK, i.e. the `x-api-key` header.
 * - In multi-turn tool use the whole assistant content (thinking, text, tool_use) must be sent back
 *   to keep the reasoning chain, so unsigned thinking is replayed too (`replayUnsignedThinking`).
 * - `temperature` must be in (0, 1]; MiniMax recommends 1, which is sent when a request sets none.
 * - This endpoint takes text and tool calls only: no images or documents.
 */
export const minimaxProvider: ProviderEntry = {
  id: 'minimax',
  name: 'MiniMax',
  adapter: 'anthropic-messages',
  baseURL: 'https://api.minimax.io/anthropic',
  regionalBaseURLs: {
    international: 'https://api.minimax.io/anthropic',
    china: 'https://api.minimaxi.com/anthropic',
  },
  apiKeyEnvVars: ['MINIMAX_API_KEY'],
  authStyle: 'x-api-key',
  docsURL: 'https://platform.minimax.io/docs/api-reference/text-anthropic-api',
  notes:
    'Anthropic-compatible endpoint (default: it returns reasoning as thinking blocks; the OpenAI-compatible /v1 puts it in <think> tags); `region: "china"` for api.minimaxi.com. Text and tools only (no images or documents). Temperature defaults to 1, MiniMax\'s recommendation (range (0, 1]).',
  modelsDevId: 'minimax',
  defaultModel: 'MiniMax-M2.7',
  defaultTemperature: 1,
  settings: { replayUnsignedThinking: true },
};
