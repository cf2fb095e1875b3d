import type { ProviderEntry } from '../provider-entry.js';

/**
 * OpenAI over the Responses API, the default for `openai` because OpenAI recommends it for new work
 * and it is the only one of its two APIs that carries reasoning across tool calls (encrypted
 * reasoning items, replayed statelessly with `store: false`); some models (the `*-codex` and `*-pro`
 * lines) are served only there. Chat Completions stays available as the `openai-chat` provider.
 *
 * @see https://platform.openai.com/docs/api-reference/responses
 * @see https://platform.openai.com/docs/guides/migrate-to-responses
 */
export const openaiProvider: ProviderEntry = {
  id: 'openai',
  name: 'OpenAI',
  adapter: 'openai-responses',
  baseURL: 'https://api.openai.com/v1',
  apiKeyEnvVars: ['OPENAI_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://platform.openai.com/docs/api-reference/responses',
  notes:
    'Responses API by default (reasoning kept across tool calls, stateless: store false); use the `openai-chat` provider for Chat Completions.',
  modelsDevId: 'openai',
  defaultModel: 'gpt-5',
  settings: { store: false },
};
