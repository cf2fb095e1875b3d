import type { ProviderEntry } from '../provider-entry.js';

/**
 * Neuralwatt, OpenAI-compatible at `https://api.neuralwatt.com/v1`. Unsure: from BoxAgnts and
 * models.dev, which agree; no vendor page was found.
 *
 * @see https://portal.neuralwatt.com/docs
 */
export const neuralwattProvider: ProviderEntry = {
  id: 'neuralwatt',
  name: 'Neuralwatt',
  adapter: 'openai-chat',
  baseURL: 'https://api.neuralwatt.com/v1',
  apiKeyEnvVars: ['NEURALWATT_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://portal.neuralwatt.com/docs',
  modelsDevId: 'neuralwatt',
  defaultModel: 'glm-5-fast',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
