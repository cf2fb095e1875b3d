import type { ProviderEntry } from '../provider-entry.js';

/**
 * Nebius Token Factory (formerly Nebius AI Studio), OpenAI-compatible at
 * `https://api.tokenfactory.nebius.com/v1`.
 *
 * @see https://docs.tokenfactory.nebius.com/api-reference/introduction
 */
export const nebiusProvider: ProviderEntry = {
  id: 'nebius',
  name: 'Nebius Token Factory',
  adapter: 'openai-chat',
  baseURL: 'https://api.tokenfactory.nebius.com/v1',
  apiKeyEnvVars: ['NEBIUS_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://docs.tokenfactory.nebius.com/api-reference/introduction',
  modelsDevId: 'nebius',
  defaultModel: 'Qwen/Qwen3-235B-A22B-Instruct-2507',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
