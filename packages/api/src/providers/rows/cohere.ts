import { COHERE_API_KEY_ENV_VARS, COHERE_DEFAULT_BASE_URL } from '../../adapters/cohere-v2/cohere-provider.js';
import type { ProviderEntry } from '../provider-entry.js';

/**
 * Cohere's v2 Chat API (`POST /v2/chat`), bearer key. Cohere's SDKs read `CO_API_KEY`; most tools
 * use `COHERE_API_KEY`: both are checked.
 *
 * @see https://docs.cohere.com/reference/chat
 * @see https://docs.cohere.com/reference/about
 */
export const cohereProvider: ProviderEntry = {
  id: 'cohere',
  name: 'Cohere',
  adapter: 'cohere-v2',
  baseURL: COHERE_DEFAULT_BASE_URL,
  apiKeyEnvVars: COHERE_API_KEY_ENV_VARS,
  authStyle: 'bearer',
  docsURL: 'https://docs.cohere.com/reference/chat',
  notes: 'v2 Chat API; tool plans kept as text and sent back as tool_plan.',
  modelsDevId: 'cohere',
  defaultModel: 'command-a-03-2025',
};
