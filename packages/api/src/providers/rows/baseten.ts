import type { ProviderEntry } from '../provider-entry.js';

/**
 * Baseten Model APIs, OpenAI-compatible at `https://inference.baseten.co/v1` (Baseten's quick
 * start). A dedicated deployment has its own URL
 * (`https://model-<id>.api.baseten.co/environments/production/sync/v1`): pass it as `baseURL`.
 *
 * @see https://docs.baseten.co/quickstart
 */
export const basetenProvider: ProviderEntry = {
  id: 'baseten',
  name: 'Baseten Model APIs',
  adapter: 'openai-chat',
  baseURL: 'https://inference.baseten.co/v1',
  apiKeyEnvVars: ['BASETEN_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://docs.baseten.co/quickstart',
  modelsDevId: 'baseten',
  defaultModel: 'zai-org/GLM-4.7',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
