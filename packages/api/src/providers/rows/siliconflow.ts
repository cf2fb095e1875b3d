import type { ProviderEntry } from '../provider-entry.js';

/**
 * SiliconFlow's OpenAI-compatible Chat Completions API (open-weight models by `org/model` id).
 *
 * - Base URL: `api.siliconflow.com` (international) by default, `api.siliconflow.cn` with
 *   `region: 'china'`; the two platforms have separate accounts and keys
 *   (`SILICONFLOW_CN_API_KEY` is read as an alias). `Authorization: Bearer`.
 *   @see https://docs.siliconflow.com/en/api-reference/chat-completions/chat-completions
 *   @see https://docs.siliconflow.cn/docs/api/chat-completions-post
 * - `max_tokens` (the answer, without the reasoning); `enable_thinking` to switch hybrid models and
 *   `thinking_budget` (128–32768) for the reasoning length; reasoning in `reasoning_content`.
 * - Reasoning echo for the interleaved-thinking models it hosts (GLM, Kimi K2.5+), whose makers want
 *   the reasoning of tool-call turns back.
 * - Unsure: whether `stream_options` is read; usage arrives in the last chunk either way.
 */
export const siliconflowProvider: ProviderEntry = {
  id: 'siliconflow',
  name: 'SiliconFlow',
  adapter: 'openai-chat',
  baseURL: 'https://api.siliconflow.com/v1',
  regionalBaseURLs: {
    international: 'https://api.siliconflow.com/v1',
    china: 'https://api.siliconflow.cn/v1',
  },
  apiKeyEnvVars: ['SILICONFLOW_API_KEY', 'SILICONFLOW_CN_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://docs.siliconflow.com/en/api-reference/chat-completions/chat-completions',
  notes:
    'api.siliconflow.com by default, `region: "china"` for api.siliconflow.cn (separate accounts). `max_tokens`; `enable_thinking` / `thinking_budget` (128–32768); reasoning echoed for GLM and Kimi models.',
  modelsDevId: 'siliconflow',
  defaultModel: 'deepseek-ai/DeepSeek-V3.2',
  settings: {
    compat: {
      maxTokensField: 'max_tokens',
      supportsStreamOptions: true,
      thinking: 'enable-thinking',
      // @see https://docs.siliconflow.com/en/api-reference/chat-completions/chat-completions (thinking_budget 128-32768)
      thinkingBudgetRange: { min: 128, max: 32_768 },
      supportsDocuments: false,
    },
  },
  modelOverrides: [
    {
      match: ['zai-org/GLM-*', 'Pro/zai-org/GLM-*', 'moonshotai/Kimi-K2*', 'Pro/moonshotai/Kimi-K2*'],
      settings: { compat: { echoReasoningContent: true } },
    },
  ],
};
