import type { ProviderEntry } from '../provider-entry.js';

/**
 * Venice AI's OpenAI-compatible API at `https://api.venice.ai/api/v1` (its API reference and its
 * OpenAI migration guide), Bearer key. Venice-only switches (`venice_parameters`) go through
 * `providerOptions['openai-chat']`.
 *
 * @see https://docs.venice.ai/api-reference/api-spec
 */
export const veniceProvider: ProviderEntry = {
  id: 'venice',
  name: 'Venice AI',
  adapter: 'openai-chat',
  baseURL: 'https://api.venice.ai/api/v1',
  apiKeyEnvVars: ['VENICE_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://docs.venice.ai/api-reference/api-spec',
  modelsDevId: 'venice',
  defaultModel: 'qwen3-235b-a22b-instruct-2507',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
