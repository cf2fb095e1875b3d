import type { ProviderEntry } from '../provider-entry.js';

/**
 * SambaNova Cloud's OpenAI-compatible API, `https://api.sambanova.ai/v1` (SambaNova's docs point to
 * their "API keys and base URLs" page; Pipecat, LiteLLM and SambaNova's own SDK list this URL).
 *
 * @see https://docs.sambanova.ai/docs/en/features/openai-compatibility
 */
export const sambanovaProvider: ProviderEntry = {
  id: 'sambanova',
  name: 'SambaNova Cloud',
  adapter: 'openai-chat',
  baseURL: 'https://api.sambanova.ai/v1',
  apiKeyEnvVars: ['SAMBANOVA_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://docs.sambanova.ai/docs/en/features/openai-compatibility',
  defaultModel: 'Meta-Llama-3.3-70B-Instruct',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
