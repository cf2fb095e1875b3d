import type { ProviderEntry } from '../provider-entry.js';

/**
 * Tencent Hunyuan (腾讯混元) through its OpenAI-compatible API. Tencent also documents an
 * Anthropic-compatible endpoint; the OpenAI-compatible one is the default here because it is the
 * one documented with Hunyuan's own parameters (`enable_enhancement`, search) and with the
 * reference of every text model. The native Tencent Cloud API (`hunyuan.tencentcloudapi.com`,
 * TC3 signatures) is not used.
 *
 * - Base URL `https://api.hunyuan.cloud.tencent.com/v1`, `Authorization: Bearer` with a key from
 *   the console's API Key page (not the SecretId/SecretKey pair).
 *   @see https://cloud.tencent.com/document/product/1729/111007
 * - `max_tokens`; `hunyuan-t1*` reasoning arrives in `reasoning_content`; Hunyuan's extra switches
 *   (`enable_enhancement`, …) go through `providerOptions['tencent-hunyuan']`.
 * - User (or tool) and assistant turns must alternate and content must not be empty; 5 concurrent
 *   requests by default. @see https://cloud.tencent.com/document/api/1729/105701
 * - Unsure: whether `stream_options` is read; the streamed chunks carry usage, so it is not sent.
 *   No international endpoint is documented for this API.
 */
export const tencentHunyuanProvider: ProviderEntry = {
  id: 'tencent-hunyuan',
  name: 'Tencent Hunyuan',
  adapter: 'openai-chat',
  baseURL: 'https://api.hunyuan.cloud.tencent.com/v1',
  apiKeyEnvVars: ['HUNYUAN_API_KEY', 'TENCENT_HUNYUAN_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://cloud.tencent.com/document/product/1729/111007',
  notes:
    'OpenAI-compatible endpoint (default; an Anthropic-compatible one also exists) with a console API key. `max_tokens`; reasoning read from `reasoning_content`; Hunyuan switches such as `enable_enhancement` via providerOptions. Turns must alternate.',
  defaultModel: 'hunyuan-turbos-latest',
  settings: {
    compat: {
      maxTokensField: 'max_tokens',
      supportsStreamOptions: false,
      thinking: 'none',
      supportsDocuments: false,
    },
  },
};
