import type { ProviderEntry } from '../provider-entry.js';

/**
 * OVHcloud AI Endpoints, OpenAI-compatible at `https://oai.endpoints.kepler.ai.cloud.ovh.net/v1`
 * (OVHcloud's Airflow provider docs, LlamaIndex, Strands). Usable without a key on a rate-limited
 * free tier, so the key is optional; `OVH_AI_ENDPOINTS_ACCESS_TOKEN` is the name OVHcloud's portal
 * examples use.
 *
 * @see https://www.ovhcloud.com/en/public-cloud/ai-endpoints/
 */
export const ovhcloudProvider: ProviderEntry = {
  id: 'ovhcloud',
  name: 'OVHcloud AI Endpoints',
  adapter: 'openai-chat',
  baseURL: 'https://oai.endpoints.kepler.ai.cloud.ovh.net/v1',
  apiKeyEnvVars: ['OVHCLOUD_API_KEY', 'OVH_AI_ENDPOINTS_ACCESS_TOKEN'],
  apiKeyOptional: true,
  authStyle: 'bearer',
  docsURL: 'https://www.ovhcloud.com/en/public-cloud/ai-endpoints/',
  modelsDevId: 'ovhcloud',
  defaultModel: 'gpt-oss-120b',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
