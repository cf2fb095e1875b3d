import type { ProviderEntry } from '../provider-entry.js';

/**
 * Baidu Qianfan (千帆) ModelBuilder inference API v2, which is OpenAI-compatible: ERNIE and hosted
 * third-party models. Only v2 is supported (the v1 API signs with access tokens / AK+SK).
 *
 * - Base URL `https://qianfan.baidubce.com/v2`; the key (`bce-v3/ALTAK-…`) goes as
 *   `Authorization: Bearer`. An optional `appid` header attributes usage to a Qianfan application:
 *   pass it in `headers`. @see https://cloud.baidu.com/doc/qianfan/s/Hmh4suq26
 *   @see https://cloud.baidu.com/doc/qianfan/s/rmh4stn9m
 * - Messages must start with `system` or `user` and alternate user/assistant (tool messages after
 *   an assistant tool call); the adapter's conversion keeps that order.
 *   @see https://cloud.baidu.com/doc/qianfan-api/s/3m7of64lb
 * - Reasoning models (ERNIE X1, DeepSeek R1) return `reasoning_content`; there is no common switch,
 *   so `thinking` is not mapped (pass a model's own field through `providerOptions['baidu-qianfan']`).
 * - Unsure: the docs read did not say whether `max_completion_tokens` replaced `max_tokens` or
 *   whether `stream_options` is read; `max_tokens` and `stream_options` are sent (set
 *   `compat.supportsStreamOptions: false` if the server refuses it). The environment variable
 *   names are this package's choice: the docs name none.
 */
export const baiduQianfanProvider: ProviderEntry = {
  id: 'baidu-qianfan',
  name: 'Baidu Qianfan (ERNIE)',
  adapter: 'openai-chat',
  baseURL: 'https://qianfan.baidubce.com/v2',
  apiKeyEnvVars: ['QIANFAN_API_KEY', 'BAIDU_QIANFAN_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://cloud.baidu.com/doc/qianfan/s/Hmh4suq26',
  notes:
    'Qianfan API v2 (OpenAI-compatible) with a Bearer API key; optional `appid` header via `headers`. No thinking switch mapped; reasoning read from `reasoning_content`. Turns must alternate.',
  defaultModel: 'ernie-4.0-turbo-8k',
  settings: {
    compat: {
      maxTokensField: 'max_tokens',
      supportsStreamOptions: true,
      thinking: 'none',
      supportsDocuments: false,
    },
  },
};
