import type { ProviderEntry } from '../provider-entry.js';

/**
 * OpenAI over Chat Completions: the same key and host as `openai`, for code and proxies that want
 * the older API. Reasoning models (o-series, gpt-5) take `max_completion_tokens` (the adapter's
 * default) and system instructions with role `developer`.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/create
 * @see https://platform.openai.com/docs/guides/text#message-roles-and-instruction-following
 */
export const openaiChatProvider: ProviderEntry = {
  id: 'openai-chat',
  name: 'OpenAI (Chat Completions)',
  adapter: 'openai-chat',
  baseURL: 'https://api.openai.com/v1',
  apiKeyEnvVars: ['OPENAI_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://platform.openai.com/docs/api-reference/chat/create',
  notes: 'Chat Completions for OpenAI; `developer` role for o-series and gpt-5 models.',
  modelsDevId: 'openai',
  defaultModel: 'gpt-4.1',
  modelOverrides: [{ match: [/^o\d/, 'gpt-5*'], settings: { compat: { supportsDeveloperRole: true } } }],
};
