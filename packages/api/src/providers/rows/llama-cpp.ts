import type { ProviderEntry } from '../provider-entry.js';

/**
 * llama.cpp's `llama-server`, OpenAI-compatible at `http://127.0.0.1:8080/v1` (its default port,
 * as BoxAgnts' `llama-cpp` row assumes). No key unless the server was started with `--api-key`.
 * The model name is whatever the server loaded; any value is accepted.
 *
 * @see https://github.com/ggml-org/llama.cpp/tree/master/tools/server
 */
export const llamaCppProvider: ProviderEntry = {
  id: 'llama-cpp',
  name: 'llama.cpp server',
  adapter: 'openai-chat',
  baseURL: 'http://127.0.0.1:8080/v1',
  apiKeyEnvVars: ['LLAMA_CPP_API_KEY', 'LLAMA_API_KEY'],
  apiKeyOptional: true,
  authStyle: 'bearer',
  docsURL: 'https://github.com/ggml-org/llama.cpp/tree/master/tools/server',
  defaultModel: 'default',
  settings: { compat: { maxTokensField: 'max_tokens', supportsDocuments: false } },
};
