import type { ProviderEntry } from '../provider-entry.js';

/**
 * Vultr Serverless Inference, OpenAI-compatible Chat Completions at `https://api.vultrinference.com/v1`
 * with the inference subscription's key (not the Vultr account API key).
 *
 * @see https://docs.vultr.com/products/serverless/inference/management/usage/chat
 */
export const vultrProvider: ProviderEntry = {
  id: 'vultr',
  name: 'Vultr Serverless Inference',
  adapter: 'openai-chat',
  baseURL: 'https://api.vultrinference.com/v1',
  apiKeyEnvVars: ['VULTR_API_KEY', 'VULTRINFERENCE_TOKEN'],
  authStyle: 'bearer',
  docsURL: 'https://docs.vultr.com/products/serverless/inference/management/usage/chat',
  modelsDevId: 'vultr',
  defaultModel: 'gpt-oss-120b',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
