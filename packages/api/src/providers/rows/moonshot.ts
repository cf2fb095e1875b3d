import type { ProviderEntry } from '../provider-entry.js';

/**
 * Moonshot AI's Kimi models through their OpenAI-compatible Chat Completions API.
 *
 * - Base URL: `api.moonshot.ai` (international) by default, `api.moonshot.cn` with
 *   `region: 'china'`; keys are per platform. Auth: `Authorization: Bearer`.
 *   @see https://platform.kimi.ai/docs/api/chat
 * - `max_tokens` is deprecated in favour of `max_completion_tokens` (without either the output is
 *   capped at a small default). @see https://platform.kimi.ai/docs/api/chat
 * - Thinking: Kimi K2.5 and later take `thinking: {type: 'enabled' | 'disabled'}` (on by default);
 *   the older `kimi-k2-*` and `moonshot-v1-*` models have no switch, so nothing is sent for them.
 *   @see https://platform.kimi.ai/docs/api/models-overview
 * - Reasoning echo: with thinking on, every assistant tool-call message must carry
 *   `reasoning_content` ("thinking is enabled but reasoning_content is missing in assistant tool
 *   call message" otherwise); the adapter sends it, `""` for calls from another vendor.
 *   @see https://platform.kimi.ai/docs/guide/kimi-k2-6-quickstart#tool-use-compatibility
 * - Temperature: fixed by the platform for Kimi K2.5 and later (do not set `temperature` or
 *   `topP` for them); the documented defaults of the older models are sent when a request sets
 *   none: 0.6 for the `kimi-k2` series, 1.0 for `kimi-k2-thinking`.
 *   @see https://platform.kimi.ai/docs/api/models-overview
 * - `stream_options: {include_usage: true}` is accepted (without it older models report usage
 *   inside `choices[0]`). Files are uploaded and referenced (`ms://`), so PDFs are not sent inline.
 */
export const moonshotProvider: ProviderEntry = {
  id: 'moonshot',
  name: 'Moonshot AI (Kimi)',
  adapter: 'openai-chat',
  baseURL: 'https://api.moonshot.ai/v1',
  regionalBaseURLs: {
    international: 'https://api.moonshot.ai/v1',
    china: 'https://api.moonshot.cn/v1',
  },
  apiKeyEnvVars: ['MOONSHOT_API_KEY', 'KIMI_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://platform.kimi.ai/docs/api/chat',
  notes:
    'api.moonshot.ai by default, `region: "china"` for api.moonshot.cn (separate keys). `max_completion_tokens`; `thinking: {type}` for Kimi K2.5+; reasoning is echoed as `reasoning_content` (required with thinking and tools). Kimi K2.5+ fix temperature and top_p: do not set them. `KIMI_API_KEY` is read too, but a Kimi Code (api.kimi.com) key does not work here.',
  modelsDevId: 'moonshotai',
  defaultModel: 'kimi-k2.6',
  settings: {
    compat: {
      maxTokensField: 'max_completion_tokens',
      supportsStreamOptions: true,
      thinking: 'thinking-type',
      echoReasoningContent: true,
      supportsDocuments: false,
    },
  },
  modelOverrides: [
    { match: ['moonshot-v1-*', 'kimi-k2-*', 'kimi-latest*'], settings: { compat: { thinking: 'none' } } },
    { match: ['kimi-k2-0*', 'kimi-k2-turbo*', 'kimi-k2-instruct*'], defaultTemperature: 0.6 },
    { match: 'kimi-k2-thinking*', defaultTemperature: 1 },
  ],
};
