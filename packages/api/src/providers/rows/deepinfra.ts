import type { ProviderEntry } from '../provider-entry.js';

/**
 * DeepInfra's OpenAI-compatible API. The base URL ends in `/v1/openai` (not `/v1`), as its docs
 * give it (`api_base` https://api.deepinfra.com/v1/openai); models.dev and BoxAgnts agree. Model ids
 * are Hugging Face paths (`Qwen/Qwen3-Coder-480B-A35B-Instruct-Turbo`). `DEEPINFRA_TOKEN` is the
 * variable its CLI (`deepctl`) uses.
 *
 * @see https://deepinfra.com/docs/advanced/openai_api
 */
export const deepinfraProvider: ProviderEntry = {
  id: 'deepinfra',
  name: 'DeepInfra',
  adapter: 'openai-chat',
  baseURL: 'https://api.deepinfra.com/v1/openai',
  apiKeyEnvVars: ['DEEPINFRA_API_KEY', 'DEEPINFRA_TOKEN'],
  authStyle: 'bearer',
  docsURL: 'https://deepinfra.com/docs/advanced/openai_api',
  modelsDevId: 'deepinfra',
  defaultModel: 'Qwen/Qwen3-Coder-480B-A35B-Instruct-Turbo',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
