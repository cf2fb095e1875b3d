import type { ProviderEntry } from '../provider-entry.js';

/**
 * Any Anthropic Messages server by base URL (the value tools put in `ANTHROPIC_BASE_URL`: the adapter
 * adds `/v1/messages`), such as DeepSeek's `https://api.deepseek.com/anthropic`, LM Studio's
 * `http://127.0.0.1:1234`, or a gateway. `baseURL` is required. The key is sent as
 * `Authorization: Bearer`, which these servers document (Anthropic's own tools send
 * `ANTHROPIC_AUTH_TOKEN` that way); use `settings: {authStyle: 'x-api-key'}` for servers that want
 * `x-api-key`. The key is optional, for local servers.
 *
 * @see https://docs.claude.com/en/api/messages
 * @see https://api-docs.deepseek.com/guides/anthropic_api
 * @see https://lmstudio.ai/docs/developer/anthropic-compat
 */
export const anthropicCompatibleProvider: ProviderEntry = {
  id: 'anthropic-compatible',
  name: 'Anthropic-compatible server',
  adapter: 'anthropic-messages',
  requiresBaseURL: true,
  apiKeyEnvVars: ['ANTHROPIC_COMPATIBLE_API_KEY', 'ANTHROPIC_AUTH_TOKEN'],
  apiKeyOptional: true,
  authStyle: 'bearer',
  docsURL: 'https://docs.claude.com/en/api/messages',
  notes: 'baseURL required (without /v1); Bearer key, optional; settings.authStyle x-api-key for servers that want it.',
  settings: { authStyle: 'bearer' },
};
