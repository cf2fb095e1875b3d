import type { ProviderEntry } from '../provider-entry.js';

/**
 * Any OpenAI Chat Completions server by base URL (llama.cpp's server, LocalAI, SGLang, TGI, a
 * gateway, a vendor without a row): `baseURL` is required, ending where `/chat/completions` follows
 * (usually `…/v1`). The key is optional (`OPENAI_COMPATIBLE_API_KEY` or `apiKey`). The quirks assumed
 * are the most widely accepted ones (`max_tokens`, no thinking switch, reasoning read from
 * `reasoning_content` or `reasoning`); change them with `settings: {compat}`.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export const openaiCompatibleProvider: ProviderEntry = {
  id: 'openai-compatible',
  name: 'OpenAI-compatible server',
  adapter: 'openai-chat',
  requiresBaseURL: true,
  apiKeyEnvVars: ['OPENAI_COMPATIBLE_API_KEY', 'CUSTOM_OPENAI_API_KEY'],
  apiKeyOptional: true,
  authStyle: 'bearer',
  docsURL: 'https://platform.openai.com/docs/api-reference/chat/create',
  notes:
    'baseURL required; key optional; conservative quirks (max_tokens, no thinking switch), override with settings.compat.',
  settings: {
    compat: {
      maxTokensField: 'max_tokens',
      thinking: 'none',
      reasoningFields: ['reasoning_content', 'reasoning'],
      supportsDocuments: false,
    },
  },
};
