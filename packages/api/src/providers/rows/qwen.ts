import type { ProviderEntry } from '../provider-entry.js';

/**
 * Alibaba Cloud Model Studio (DashScope) in OpenAI-compatible mode: Qwen, and the third-party
 * models Model Studio hosts (Kimi, GLM, DeepSeek, MiniMax).
 *
 * - Base URL: Singapore (`dashscope-intl`, international) by default, Beijing (`dashscope`) with
 *   `region: 'china'`; keys are per region. Auth: `Authorization: Bearer`.
 *   @see https://www.alibabacloud.com/help/en/model-studio/regions/
 *   @see https://www.alibabacloud.com/help/en/model-studio/compatibility-of-openai-with-dashscope
 * - `max_completion_tokens`: Model Studio replaced `max_tokens` for every OpenAI-compatible model
 *   (notice of 2026-04-20, `max_tokens` deprecated by 2026-05-30).
 *   @see https://www.alibabacloud.com/en/notice/model_studio_notice_of_changes_to_certain_model_fields_724
 * - Thinking: `enable_thinking: true | false` with `thinking_budget` for hybrid models; thinking-only
 *   models ignore the switch. `stream_options: {include_usage: true}` is documented.
 *   @see https://www.alibabacloud.com/help/en/model-studio/deep-thinking
 * - Reasoning echo: Qwen does not need its reasoning sent back; the interleaved-thinking models
 *   Model Studio hosts (Kimi K2.5+, GLM-5, DeepSeek V4, MiniMax M2.5) do, so it is echoed for them.
 *   Unsure: whether every hosted copy enforces it as its maker's API does; echoing is harmless.
 * - Prompt caching is implicit; explicit `cache_control` markers (billed on write) are left off.
 */
export const qwenProvider: ProviderEntry = {
  id: 'qwen',
  name: 'Alibaba Qwen (Model Studio / DashScope)',
  adapter: 'openai-chat',
  baseURL: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1',
  regionalBaseURLs: {
    international: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1',
    china: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
  },
  apiKeyEnvVars: ['DASHSCOPE_API_KEY', 'QWEN_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://www.alibabacloud.com/help/en/model-studio/compatibility-of-openai-with-dashscope',
  notes:
    'DashScope compatible mode; Singapore (international) by default, `region: "china"` for Beijing (keys are per region). `max_completion_tokens`; `enable_thinking` / `thinking_budget`; reasoning echoed only for the hosted interleaved-thinking models (Kimi, GLM, DeepSeek V4, MiniMax). Some thinking models answer only when streamed.',
  modelsDevId: 'alibaba',
  defaultModel: 'qwen-plus',
  settings: {
    compat: {
      maxTokensField: 'max_completion_tokens',
      supportsStreamOptions: true,
      thinking: 'enable-thinking',
      echoReasoningContent: false,
      supportsDocuments: false,
    },
  },
  modelOverrides: [
    {
      match: ['kimi-*', 'kimi/*', 'glm-*', 'deepseek-v4*', 'MiniMax-*'],
      settings: { compat: { echoReasoningContent: true } },
    },
  ],
};
