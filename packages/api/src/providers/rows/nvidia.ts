import type { ProviderEntry } from '../provider-entry.js';

/**
 * NVIDIA's hosted NIM endpoints (build.nvidia.com), all OpenAI-compatible under
 * `https://integrate.api.nvidia.com/v1` with `Authorization: Bearer $NVIDIA_API_KEY`.
 *
 * @see https://docs.api.nvidia.com/nim/reference/llm-apis
 */
export const nvidiaProvider: ProviderEntry = {
  id: 'nvidia',
  name: 'NVIDIA NIM',
  adapter: 'openai-chat',
  baseURL: 'https://integrate.api.nvidia.com/v1',
  apiKeyEnvVars: ['NVIDIA_API_KEY', 'NIM_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://docs.api.nvidia.com/nim/reference/llm-apis',
  modelsDevId: 'nvidia',
  defaultModel: 'meta/llama-3.3-70b-instruct',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
