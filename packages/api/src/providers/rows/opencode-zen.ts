import type { ProviderEntry } from '../provider-entry.js';

/**
 * OpenCode Zen, the OpenCode team's pay-as-you-go gateway of coding models, OpenAI-compatible at
 * `https://opencode.ai/zen/v1` (`/chat/completions`); one `OPENCODE_API_KEY` serves Zen and Go.
 *
 * @see https://opencode.ai/docs/zen
 */
export const opencodeZenProvider: ProviderEntry = {
  id: 'opencode-zen',
  name: 'OpenCode Zen',
  adapter: 'openai-chat',
  baseURL: 'https://opencode.ai/zen/v1',
  apiKeyEnvVars: ['OPENCODE_API_KEY', 'OPENCODE_ZEN_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://opencode.ai/docs/zen',
  modelsDevId: 'opencode',
  defaultModel: 'glm-4.7',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
