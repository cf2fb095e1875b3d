import type { ProviderEntry } from '../provider-entry.js';

/**
 * Synthetic (synthetic.new), OpenAI-compatible at `https://api.synthetic.new/openai/v1`; model ids
 * carry an `hf:` prefix. Unsure: the URL comes from BoxAgnts and models.dev, which agree; no vendor
 * page was found.
 *
 * @see https://synthetic.new
 */
export const syntheticProvider: ProviderEntry = {
  id: 'synthetic',
  name: 'Synthetic',
  adapter: 'openai-chat',
  baseURL: 'https://api.synthetic.new/openai/v1',
  apiKeyEnvVars: ['SYNTHETIC_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://synthetic.new',
  modelsDevId: 'synthetic',
  defaultModel: 'hf:meta-llama/Llama-3.3-70B-Instruct',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
