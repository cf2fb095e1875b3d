import type { ProviderEntry } from '../provider-entry.js';

/**
 * A vLLM server (`vllm serve`) on its default address `http://127.0.0.1:8000/v1`. A key only when
 * the server was started with `--api-key` (or `VLLM_API_KEY`, the variable vLLM itself reads). Its
 * reasoning parsers put thinking in `reasoning_content` (older releases) or `reasoning`; only
 * `max_tokens` is assumed, which every vLLM release accepts. Any other address: `baseURL`.
 *
 * @see https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html
 * @see https://docs.vllm.ai/en/latest/features/reasoning_outputs.html
 */
export const vllmProvider: ProviderEntry = {
  id: 'vllm',
  name: 'vLLM',
  adapter: 'openai-chat',
  baseURL: 'http://127.0.0.1:8000/v1',
  apiKeyEnvVars: ['VLLM_API_KEY'],
  apiKeyOptional: true,
  authStyle: 'bearer',
  docsURL: 'https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html',
  notes: 'Local server at 127.0.0.1:8000/v1; a key only when started with --api-key.',
  settings: {
    compat: {
      maxTokensField: 'max_tokens',
      thinking: 'none',
      reasoningFields: ['reasoning_content', 'reasoning'],
      supportsDocuments: false,
    },
  },
};
