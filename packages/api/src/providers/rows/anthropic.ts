import { ANTHROPIC_DEFAULT_BASE_URL } from '../../adapters/anthropic-messages/anthropic-provider.js';
import type { ProviderEntry } from '../provider-entry.js';

/**
 * Anthropic's own Messages API: key in `x-api-key`, `anthropic-version: 2023-06-01`; base URL without
 * `/v1` (the adapter adds `/v1/messages`). Prompt caching uses `cache_control` markers, which the
 * adapter places at the system prompt's cache boundary.
 *
 * @see https://docs.claude.com/en/api/overview#authentication
 * @see https://docs.claude.com/en/api/messages
 */
export const anthropicProvider: ProviderEntry = {
  id: 'anthropic',
  name: 'Anthropic',
  adapter: 'anthropic-messages',
  baseURL: ANTHROPIC_DEFAULT_BASE_URL,
  apiKeyEnvVars: ['ANTHROPIC_API_KEY'],
  authStyle: 'x-api-key',
  docsURL: 'https://docs.claude.com/en/api/messages',
  notes: 'Prompt caching with cache_control markers at the cache boundary; extended thinking with signed blocks.',
  modelsDevId: 'anthropic',
  defaultModel: 'claude-sonnet-4-6',
  settings: { authStyle: 'x-api-key' },
};
