import { OLLAMA_DEFAULT_BASE_URL } from '../../adapters/ollama/ollama-provider.js';
import type { ProviderEntry } from '../provider-entry.js';

/**
 * Ollama's native chat API (`POST /api/chat`, NDJSON) on a local server, no key. Region `cloud`
 * selects Ollama Cloud (`https://ollama.com`), which needs `OLLAMA_API_KEY` (sent as a bearer token
 * whenever it is set). `OLLAMA_HOST` is not read: it is the server's listen address and often has no
 * scheme; pass `baseURL` for another host.
 *
 * @see https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
 * @see https://docs.ollama.com/cloud
 */
export const ollamaProvider: ProviderEntry = {
  id: 'ollama',
  name: 'Ollama',
  adapter: 'ollama',
  baseURL: OLLAMA_DEFAULT_BASE_URL,
  regionalBaseURLs: { local: OLLAMA_DEFAULT_BASE_URL, cloud: 'https://ollama.com' },
  apiKeyEnvVars: ['OLLAMA_API_KEY'],
  apiKeyOptional: true,
  authStyle: 'bearer',
  docsURL: 'https://github.com/ollama/ollama/blob/main/docs/api.md',
  notes: 'Local server at 127.0.0.1:11434 by default, no key; region cloud = https://ollama.com with OLLAMA_API_KEY.',
  defaultModel: 'qwen3:8b',
};
