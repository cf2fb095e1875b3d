import type { ProviderEntry } from '../provider-entry.js';

/**
 * Groq's OpenAI-compatible Chat Completions API.
 *
 * - Base URL `https://api.groq.com/openai/v1`, `Authorization: Bearer`.
 *   @see https://console.groq.com/docs/openai
 * - `max_completion_tokens` (`max_tokens` is deprecated). `logprobs`, `logit_bias`,
 *   `top_logprobs`, `messages[].name` and `n > 1` are rejected with a 400; the adapter sends none
 *   of them. A temperature of 0 becomes 1e-8. @see https://console.groq.com/docs/api-reference#chat-create
 * - Reasoning comes in the `reasoning` delta field (`reasoning_format: 'parsed'`, the default with
 *   tools) and is not sent back. `reasoning_effort` (`low | medium | high`) switches depth on the
 *   GPT-OSS models; Qwen 3 takes only `none | default`, so no effort is sent for `qwen/*` (pass
 *   `reasoning_effort` through `providerOptions.groq`). @see https://console.groq.com/docs/reasoning
 * - Usage arrives in `x_groq.usage` and, with `stream_options.include_usage`, at the top level.
 */
export const groqProvider: ProviderEntry = {
  id: 'groq',
  name: 'Groq',
  adapter: 'openai-chat',
  baseURL: 'https://api.groq.com/openai/v1',
  apiKeyEnvVars: ['GROQ_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://console.groq.com/docs/openai',
  notes:
    '`max_completion_tokens`; reasoning read from `reasoning`; `reasoning_effort` for GPT-OSS (none sent for Qwen 3, which takes only none/default). Rejects logprobs, logit_bias and message names.',
  modelsDevId: 'groq',
  defaultModel: 'llama-3.3-70b-versatile',
  settings: {
    compat: {
      maxTokensField: 'max_completion_tokens',
      supportsStreamOptions: true,
      thinking: 'reasoning-effort',
      supportsDocuments: false,
    },
  },
  modelOverrides: [{ match: 'qwen/*', settings: { compat: { thinking: 'none' } } }],
};
