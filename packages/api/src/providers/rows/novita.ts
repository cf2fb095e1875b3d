import type { ProviderEntry } from '../provider-entry.js';

/**
 * Novita AI's OpenAI-compatible API. Sources disagree on the base URL: Novita's own quick start and
 * models.dev give `https://api.novita.ai/openai` (requests to `/openai/v1/chat/completions` also
 * work per its cURL example); BoxAgnts and LiteLLM use the older `https://api.novita.ai/v3/openai`.
 * This row follows the vendor's current quick start.
 *
 * @see https://novita.ai/docs/guides/llm-api
 */
export const novitaProvider: ProviderEntry = {
  id: 'novita',
  name: 'Novita AI',
  adapter: 'openai-chat',
  baseURL: 'https://api.novita.ai/openai',
  apiKeyEnvVars: ['NOVITA_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://novita.ai/docs/guides/llm-api',
  modelsDevId: 'novita-ai',
  defaultModel: 'deepseek/deepseek-v3-0324',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
