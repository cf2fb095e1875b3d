import type { ProviderEntry } from '../provider-entry.js';

/**
 * Scaleway Generative APIs, OpenAI-compatible at `https://api.scaleway.ai/v1` (its "Using Chat API"
 * page: `POST https://api.scaleway.ai/v1/chat/completions`, Bearer IAM secret key, which its docs
 * keep in `SCW_SECRET_KEY`). A project-scoped URL is `https://api.scaleway.ai/<project id>/v1`.
 *
 * @see https://www.scaleway.com/en/docs/generative-apis/
 */
export const scalewayProvider: ProviderEntry = {
  id: 'scaleway',
  name: 'Scaleway Generative APIs',
  adapter: 'openai-chat',
  baseURL: 'https://api.scaleway.ai/v1',
  apiKeyEnvVars: ['SCALEWAY_API_KEY', 'SCW_SECRET_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://www.scaleway.com/en/docs/generative-apis/',
  modelsDevId: 'scaleway',
  defaultModel: 'qwen3-235b-a22b-instruct-2507',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
