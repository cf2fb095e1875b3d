import type { ProviderEntry } from '../provider-entry.js';

/**
 * Fireworks AI's OpenAI-compatible Chat Completions API (models named
 * `accounts/fireworks/models/<name>`).
 *
 * - Base URL `https://api.fireworks.ai/inference/v1`, `Authorization: Bearer`.
 *   @see https://fireworks.ai/docs/tools-sdks/openai-compatibility
 * - `max_tokens`. Reasoning models return `reasoning_content` and take `reasoning_effort`.
 *   @see https://fireworks.ai/docs/guides/reasoning
 * - Reasoning echo: most reasoning models Fireworks serves (GLM, Kimi K2, MiniMax M2, DeepSeek V3.2)
 *   think between tool calls and want the earlier `reasoning_content` back; models that do not use
 *   it ignore it.
 * - Usage comes in the last streamed chunk; `stream_options` is accepted. Unsure: the docs read did not
 *   list `stream_options` or which models take `reasoning_effort`; both are OpenAI fields Fireworks
 *   documents as compatible.
 */
export const fireworksProvider: ProviderEntry = {
  id: 'fireworks',
  name: 'Fireworks AI',
  adapter: 'openai-chat',
  baseURL: 'https://api.fireworks.ai/inference/v1',
  apiKeyEnvVars: ['FIREWORKS_API_KEY', 'FIREWORKS_AI_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://fireworks.ai/docs/tools-sdks/openai-compatibility',
  notes:
    'Model ids are `accounts/fireworks/models/<name>`. `max_tokens`; `reasoning_effort`; reasoning echoed as `reasoning_content` (GLM, Kimi, MiniMax, DeepSeek think between tool calls).',
  modelsDevId: 'fireworks-ai',
  defaultModel: 'accounts/fireworks/models/gpt-oss-120b',
  settings: {
    compat: {
      maxTokensField: 'max_tokens',
      supportsStreamOptions: true,
      thinking: 'reasoning-effort',
      echoReasoningContent: true,
      supportsDocuments: false,
    },
  },
};
