import type { ProviderEntry } from '../provider-entry.js';

/**
 * Perplexity's Sonar API (web-grounded answers with citations), OpenAI Chat Completions compatible.
 *
 * - Base URL `https://api.perplexity.ai` (no `/v1`; requests go to `/chat/completions`),
 *   `Authorization: Bearer`. @see https://docs.perplexity.ai/docs/sonar/openai-compatibility
 * - `max_tokens`; `reasoning_effort` (`low | medium | high`) for `sonar-deep-research`; the
 *   `sonar-reasoning*` models write their reasoning as `<think>` text into the answer.
 * - Every streamed chunk carries the usage so far, so `stream_options` is not sent. Citations and
 *   search results arrive as extra fields of the response.
 * - No tool calling (tools are ignored), no `/models` list (models come from the catalogue), and
 *   after the system message user and assistant turns must alternate.
 */
export const perplexityProvider: ProviderEntry = {
  id: 'perplexity',
  name: 'Perplexity (Sonar)',
  adapter: 'openai-chat',
  baseURL: 'https://api.perplexity.ai',
  apiKeyEnvVars: ['PERPLEXITY_API_KEY', 'PPLX_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://docs.perplexity.ai/docs/sonar/openai-compatibility',
  notes:
    'Web-grounded Sonar models; no tool calling, no model list endpoint (catalogue used). `max_tokens`; `reasoning_effort` for sonar-deep-research. Turns must alternate user/assistant.',
  modelsDevId: 'perplexity',
  defaultModel: 'sonar-pro',
  modelListing: 'catalogue',
  settings: {
    compat: {
      maxTokensField: 'max_tokens',
      supportsStreamOptions: false,
      thinking: 'reasoning-effort',
      supportsDocuments: false,
    },
  },
};
