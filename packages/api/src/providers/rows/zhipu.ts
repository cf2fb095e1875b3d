import type { ProviderEntry } from '../provider-entry.js';

/**
 * Zhipu AI's GLM models through their OpenAI-compatible Chat Completions API, the default way to
 * GLM. This is GLM's own general API: every GLM model (vision ones too) and every documented
 * parameter is served here, with reasoning in `reasoning_content`. The Anthropic-compatible endpoint
 * (the `zhipu-anthropic` row) is documented for coding tools such as Claude Code and takes
 * text and tools only, so it is the alternative, not the default.
 *
 * - Base URL: the international platform Z.ai by default; `region: 'china'` is BigModel
 *   (open.bigmodel.cn). Keys are per platform. The GLM Coding Plan has endpoints of its own
 *   (`international-coding`, `china-coding`).
 *   @see https://docs.z.ai/guides/develop/openai/python
 *   @see https://docs.bigmodel.cn/cn/guide/develop/openai/introduction
 *   @see https://docs.z.ai/devpack/overview
 * - Auth: `Authorization: Bearer <key>`. @see https://docs.z.ai/api-reference/introduction
 * - `max_tokens`; `thinking: {type: 'enabled' | 'disabled'}` (on by default from GLM-4.7);
 *   interleaved thinking needs the reasoning sent back with tool results, so `reasoning_content` is
 *   echoed. @see https://docs.z.ai/guides/capabilities/thinking-mode
 * - `stream_options` is not in GLM's reference; the last streamed chunk carries usage without it,
 *   so it is not sent. Tool calls stream whole unless `tool_stream: true` is passed through
 *   `providerOptions.zhipu` (GLM-4.6 and later). PDFs are not taken as `file` parts. Unsure: whether
 *   GLM would reject `stream_options`; it is simply left out.
 */
export const zhipuProvider: ProviderEntry = {
  id: 'zhipu',
  name: 'Zhipu AI (GLM)',
  adapter: 'openai-chat',
  baseURL: 'https://api.z.ai/api/paas/v4',
  regionalBaseURLs: {
    international: 'https://api.z.ai/api/paas/v4',
    china: 'https://open.bigmodel.cn/api/paas/v4',
    'international-coding': 'https://api.z.ai/api/coding/paas/v4',
    'china-coding': 'https://open.bigmodel.cn/api/coding/paas/v4',
  },
  apiKeyEnvVars: ['ZHIPU_API_KEY', 'ZAI_API_KEY', 'ZHIPUAI_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://docs.z.ai/api-reference/llm/chat-completion',
  notes:
    'Default: the OpenAI-compatible API on Z.ai (international), which serves every GLM model and parameter; `region: "china"` is open.bigmodel.cn (its own keys); `international-coding` / `china-coding` are the GLM Coding Plan endpoints. The Anthropic-compatible endpoint is the `zhipu-anthropic` row. Reasoning is echoed as `reasoning_content` for interleaved thinking; pass `tool_stream: true` in `providerOptions.zhipu` to stream tool-call arguments.',
  modelsDevId: 'zai',
  defaultModel: 'glm-4.7',
  settings: {
    compat: {
      maxTokensField: 'max_tokens',
      supportsStreamOptions: false,
      thinking: 'thinking-type',
      echoReasoningContent: true,
      supportsDocuments: false,
    },
  },
};
