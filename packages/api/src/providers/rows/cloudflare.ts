import type { ProviderEntry } from '../provider-entry.js';

/**
 * Cloudflare Workers AI's OpenAI-compatible endpoints,
 * `https://api.cloudflare.com/client/v4/accounts/{account_id}/ai/v1` with a Bearer API token
 * (Cloudflare's "OpenAI compatible API endpoints" page). The account id comes from `parameters:
 * {account}` or `CLOUDFLARE_ACCOUNT_ID`. BoxAgnts names the token `CLOUDFLARE_API_TOKEN`, models.dev
 * `CLOUDFLARE_API_KEY`; both are read.
 *
 * @see https://developers.cloudflare.com/workers-ai/configuration/open-ai-compatibility/
 */
export const cloudflareProvider: ProviderEntry = {
  id: 'cloudflare',
  name: 'Cloudflare Workers AI',
  adapter: 'openai-chat',
  baseURL: 'https://api.cloudflare.com/client/v4/accounts/{account}/ai/v1',
  apiKeyEnvVars: ['CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_API_KEY'],
  authStyle: 'bearer',
  parameters: {
    account: { envVars: ['CLOUDFLARE_ACCOUNT_ID'], description: 'the Cloudflare account id' },
  },
  docsURL: 'https://developers.cloudflare.com/workers-ai/configuration/open-ai-compatibility/',
  modelsDevId: 'cloudflare-workers-ai',
  defaultModel: '@cf/openai/gpt-oss-120b',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
