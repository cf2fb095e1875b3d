import type { ProviderEntry } from '../provider-entry.js';

/**
 * Together AI's OpenAI-compatible Chat Completions API (open-weight models by `org/model` id).
 *
 * - Base URL `https://api.together.xyz/v1` (the docs also show `https://api.together.ai/v1`, the
 *   same service), `Authorization: Bearer`. @see https://docs.together.ai/docs/openai-api-compatibility
 * - `max_tokens`; `reasoning_effort` for reasoning models that take it (GPT-OSS); reasoning arrives
 *   in the `reasoning` field (DeepSeek R1 still writes `<think>` into the text).
 *   @see https://docs.together.ai/docs/reasoning-models-guide
 * - Reasoning echo for the interleaved-thinking models Together hosts (DeepSeek V4, Kimi K2.5+), whose
 *   makers require the reasoning of tool-call turns back. Unsure: whether Together enforces it.
 * - Unsure: whether `stream_options` is read; Together sends usage in the last chunk either way.
 */
export const togetherProvider: ProviderEntry = {
  id: 'together',
  name: 'Together AI',
  adapter: 'openai-chat',
  baseURL: 'https://api.together.xyz/v1',
  apiKeyEnvVars: ['TOGETHER_API_KEY', 'TOGETHERAI_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://docs.together.ai/docs/openai-api-compatibility',
  notes:
    '`max_tokens`; `reasoning_effort`; reasoning read from `reasoning` (or `reasoning_content`) and echoed for DeepSeek V4 and Kimi K2.5+.',
  modelsDevId: 'togetherai',
  defaultModel: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
  settings: {
    compat: {
      maxTokensField: 'max_tokens',
      supportsStreamOptions: true,
      thinking: 'reasoning-effort',
      supportsDocuments: false,
    },
  },
  modelOverrides: [
    {
      match: ['deepseek-ai/DeepSeek-V4*', 'moonshotai/Kimi-K2.5*', 'moonshotai/Kimi-K2.6*'],
      settings: { compat: { echoReasoningContent: true } },
    },
  ],
};
