import type { ProviderEntry } from '../provider-entry.js';

/**
 * OpenCode Go, the subscription tier of OpenCode's gateway, at `https://opencode.ai/zen/go/v1`
 * (BoxAgnts and models.dev agree); the same `OPENCODE_API_KEY` as Zen.
 *
 * @see https://opencode.ai/docs/zen
 */
export const opencodeGoProvider: ProviderEntry = {
  id: 'opencode-go',
  name: 'OpenCode Go',
  adapter: 'openai-chat',
  baseURL: 'https://opencode.ai/zen/go/v1',
  apiKeyEnvVars: ['OPENCODE_API_KEY', 'OPENCODE_ZEN_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://opencode.ai/docs/zen',
  modelsDevId: 'opencode-go',
  defaultModel: 'kimi-k2.5',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
