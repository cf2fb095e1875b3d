import type { ProviderEntry } from '../provider-entry.js';

/**
 * Upstage's Solar models, OpenAI-compatible. Sources disagree: Upstage's console examples use
 * `base_url="https://api.upstage.ai/v1"`; BoxAgnts and models.dev use the older
 * `https://api.upstage.ai/v1/solar`. This row follows the vendor's console.
 *
 * @see https://console.upstage.ai/docs/capabilities/chat
 */
export const upstageProvider: ProviderEntry = {
  id: 'upstage',
  name: 'Upstage (Solar)',
  adapter: 'openai-chat',
  baseURL: 'https://api.upstage.ai/v1',
  apiKeyEnvVars: ['UPSTAGE_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://console.upstage.ai/docs/capabilities/chat',
  modelsDevId: 'upstage',
  defaultModel: 'solar-pro3',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
