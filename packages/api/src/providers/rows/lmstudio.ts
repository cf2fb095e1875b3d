import type { ProviderEntry } from '../provider-entry.js';

/**
 * LM Studio's OpenAI-compatible local server (`http://127.0.0.1:1234/v1`). No key by default; with
 * "Require Authentication" on, LM Studio wants its API token as a bearer token (its docs call the
 * variable `LM_API_TOKEN`; models.dev lists `LMSTUDIO_API_KEY`). The model id is the identifier LM
 * Studio shows. Whether every loaded model honours `stream_options` is not documented; the server
 * ignores fields it does not know.
 *
 * @see https://lmstudio.ai/docs/api/openai-api
 * @see https://lmstudio.ai/docs/developer/anthropic-compat
 */
export const lmstudioProvider: ProviderEntry = {
  id: 'lmstudio',
  name: 'LM Studio',
  adapter: 'openai-chat',
  baseURL: 'http://127.0.0.1:1234/v1',
  apiKeyEnvVars: ['LM_API_TOKEN', 'LMSTUDIO_API_KEY'],
  apiKeyOptional: true,
  authStyle: 'bearer',
  docsURL: 'https://lmstudio.ai/docs/api/openai-api',
  notes: 'Local server at 127.0.0.1:1234/v1; a key only when Require Authentication is on.',
  modelsDevId: 'lmstudio',
  defaultModel: 'openai/gpt-oss-20b',
  settings: {
    compat: {
      maxTokensField: 'max_tokens',
      thinking: 'none',
      reasoningFields: ['reasoning_content', 'reasoning'],
      supportsDocuments: false,
    },
  },
};
