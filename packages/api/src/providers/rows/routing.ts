import type { ProviderEntry } from '../provider-entry.js';

/**
 * Routing.run, an OpenAI-compatible router. Unsure: the base URL comes from BoxAgnts' provider
 * table only; no vendor documentation was found to confirm it.
 *
 * @see https://routing.run
 */
export const routingProvider: ProviderEntry = {
  id: 'routing',
  name: 'Routing.run',
  adapter: 'openai-chat',
  baseURL: 'https://api.routing.run/v1',
  apiKeyEnvVars: ['ROUTING_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://routing.run',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
