import type { ProviderEntry } from '../provider-entry.js';

/**
 * Crof AI, OpenAI-compatible. Unsure: the base URL comes from BoxAgnts' provider table only; no
 * vendor documentation was found to confirm it.
 *
 * @see https://crof.ai
 */
export const crofProvider: ProviderEntry = {
  id: 'crof',
  name: 'Crof AI',
  adapter: 'openai-chat',
  baseURL: 'https://api.crof.ai/v1',
  apiKeyEnvVars: ['CROF_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://crof.ai',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
