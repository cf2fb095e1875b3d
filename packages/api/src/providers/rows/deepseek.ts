import type { ProviderEntry } from '../provider-entry.js';

/**
 * DeepSeek over its OpenAI-compatible API at `https://api.deepseek.com` (the default). DeepSeek also
 * serves an Anthropic-compatible endpoint (`https://api.deepseek.com/anthropic`, ANTHROPIC_BASE_URL
 * style, reachable with the `anthropic-compatible` provider); the OpenAI-compatible one is the default
 * because it is DeepSeek's primary, fully documented API, reports `reasoning_content` and cache hits
 * (`prompt_cache_hit_tokens`), and its thinking switch (`thinking: {type}`) is documented there.
 * Reasoning must be echoed: in thinking mode DeepSeek rejects (HTTP 400) a request whose earlier
 * tool-call turns lack `reasoning_content`. Only `max_tokens` is known. `deepseek-chat` and
 * `deepseek-reasoner` are the older names of the V4 Flash non-thinking / thinking modes.
 *
 * @see https://api-docs.deepseek.com/
 * @see https://api-docs.deepseek.com/guides/thinking_mode
 * @see https://api-docs.deepseek.com/guides/anthropic_api
 */
export const deepseekProvider: ProviderEntry = {
  id: 'deepseek',
  name: 'DeepSeek',
  adapter: 'openai-chat',
  baseURL: 'https://api.deepseek.com',
  apiKeyEnvVars: ['DEEPSEEK_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://api-docs.deepseek.com/',
  notes:
    'OpenAI-compatible endpoint by default (Anthropic-compatible one at https://api.deepseek.com/anthropic via anthropic-compatible); reasoning_content echoed back; thinking: {type}; max_tokens.',
  modelsDevId: 'deepseek',
  defaultModel: 'deepseek-v4-flash',
  settings: {
    compat: {
      maxTokensField: 'max_tokens',
      thinking: 'thinking-type',
      reasoningFields: ['reasoning_content'],
      echoReasoningContent: true,
      supportsDocuments: false,
    },
  },
};
