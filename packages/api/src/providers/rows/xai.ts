import type { ProviderEntry } from '../provider-entry.js';

/**
 * xAI (Grok) over Chat Completions at `https://api.x.ai/v1`, bearer key. Quirk by model: only some
 * Grok models accept `reasoning_effort` (grok-3-mini per xAI's reasoning guide; grok-4.3 per xAI's
 * newer model pages and the Vercel AI SDK); grok-3, grok-4 and the grok-4 fast lines reason on their
 * own and answer HTTP 400 to the parameter, so it is sent only to the models listed here. Only
 * grok-3-mini returns `reasoning_content` in Chat Completions. grok-3-mini takes `low` and `high`
 * only; the adapter's `medium` (budgets of 4097–16384 tokens) is refused there.
 *
 * @see https://docs.x.ai/docs/guides/reasoning
 * @see https://docs.x.ai/docs/api-reference#chat-completions
 */
export const xaiProvider: ProviderEntry = {
  id: 'xai',
  name: 'xAI',
  adapter: 'openai-chat',
  baseURL: 'https://api.x.ai/v1',
  apiKeyEnvVars: ['XAI_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://docs.x.ai/docs/api-reference',
  notes: 'reasoning_effort only for grok-3-mini and grok-4.3 (others reject it); max_tokens.',
  modelsDevId: 'xai',
  defaultModel: 'grok-4.3',
  settings: {
    compat: {
      maxTokensField: 'max_tokens',
      thinking: 'none',
      reasoningFields: ['reasoning_content'],
      supportsDocuments: false,
    },
  },
  modelOverrides: [{ match: ['grok-3-mini*', 'grok-4.3*'], settings: { compat: { thinking: 'reasoning-effort' } } }],
};
