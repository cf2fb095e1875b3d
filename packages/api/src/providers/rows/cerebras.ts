import type { ProviderEntry } from '../provider-entry.js';

/**
 * Cerebras Inference's OpenAI-compatible Chat Completions API.
 *
 * - Base URL `https://api.cerebras.ai/v1`, `Authorization: Bearer`.
 *   @see https://inference-docs.cerebras.ai/resources/openai
 * - `max_completion_tokens`. `frequency_penalty`, `presence_penalty`, `logit_bias`,
 *   `parallel_tool_calls` and `service_tier` are rejected with a 400; the adapter sends none of them.
 *   @see https://inference-docs.cerebras.ai/api-reference/chat-completions
 * - Reasoning in the `reasoning` field (`reasoning_format: 'parsed'`); `reasoning_effort` for GPT-OSS.
 *   Cerebras-specific switches (`clear_thinking` for GLM) go through `providerOptions.cerebras`.
 *   @see https://inference-docs.cerebras.ai/capabilities/reasoning
 * - Unsure: whether `stream_options` is needed; usage arrives in the last chunk.
 */
export const cerebrasProvider: ProviderEntry = {
  id: 'cerebras',
  name: 'Cerebras',
  adapter: 'openai-chat',
  baseURL: 'https://api.cerebras.ai/v1',
  apiKeyEnvVars: ['CEREBRAS_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://inference-docs.cerebras.ai/resources/openai',
  notes:
    '`max_completion_tokens`; reasoning read from `reasoning`; `reasoning_effort` for GPT-OSS. Rejects penalties, logit_bias, parallel_tool_calls and service_tier (never sent).',
  modelsDevId: 'cerebras',
  defaultModel: 'gpt-oss-120b',
  settings: {
    compat: {
      maxTokensField: 'max_completion_tokens',
      supportsStreamOptions: true,
      thinking: 'reasoning-effort',
      supportsDocuments: false,
    },
  },
};
