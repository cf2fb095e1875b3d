import type { ProviderEntry } from '../provider-entry.js';

/**
 * FriendliAI Serverless Endpoints, OpenAI-compatible, with a personal access token in
 * `FRIENDLI_TOKEN` (the name Friendli's SDKs read). Unsure: the `/serverless/v1` path is what
 * models.dev and BoxAgnts use; the Friendli pages found only name the host `https://api.friendli.ai`.
 * Dedicated endpoints use `https://api.friendli.ai/dedicated/v1`: pass it as `baseURL`.
 *
 * @see https://friendli.ai/docs/guides/serverless_endpoints/introduction
 */
export const friendliProvider: ProviderEntry = {
  id: 'friendli',
  name: 'FriendliAI Serverless',
  adapter: 'openai-chat',
  baseURL: 'https://api.friendli.ai/serverless/v1',
  apiKeyEnvVars: ['FRIENDLI_TOKEN', 'FRIENDLI_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://friendli.ai/docs/guides/serverless_endpoints/introduction',
  modelsDevId: 'friendli',
  defaultModel: 'meta-llama/Llama-3.3-70B-Instruct',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
