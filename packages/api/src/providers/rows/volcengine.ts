import type { ProviderEntry } from '../provider-entry.js';

/**
 * Volcengine Ark (火山方舟): ByteDance's Doubao models and hosted third-party models, through Ark's
 * OpenAI-compatible Chat Completions API. The model is a model id (`doubao-seed-1-6-251015`) or an
 * inference endpoint id (`ep-…`).
 *
 * - Base URL `https://ark.cn-beijing.volces.com/api/v3` (Volcengine, China) by default;
 *   `region: 'international'` is BytePlus ModelArk (`ark.ap-southeast.bytepluses.com`), a separate
 *   platform with its own keys and model ids. `Authorization: Bearer` with an Ark API key.
 *   @see https://www.volcengine.com/docs/82379/1494384
 *   @see https://docs.byteplus.com/en/docs/ModelArk/1399009
 * - `thinking: {type: 'enabled' | 'disabled' | 'auto'}` (Doubao Seed; on by default). Budgets and
 *   efforts only switch it on; `reasoning_effort` and `type: 'auto'` go through
 *   `providerOptions.volcengine`. @see https://www.volcengine.com/docs/82379/1449737
 * - `max_tokens` limits the answer (default 4096, reasoning not counted); `max_completion_tokens`
 *   (answer + reasoning) is the alternative, set per model with `compat.maxTokensField`.
 * - Assistant messages take `reasoning_content`; it is echoed so models that think between tool
 *   calls keep their chain. `stream_options.include_usage` is documented.
 *   @see https://docs.byteplus.com/en/docs/ModelArk/Chat
 */
export const volcengineProvider: ProviderEntry = {
  id: 'volcengine',
  name: 'Volcengine Ark (Doubao)',
  adapter: 'openai-chat',
  baseURL: 'https://ark.cn-beijing.volces.com/api/v3',
  regionalBaseURLs: {
    china: 'https://ark.cn-beijing.volces.com/api/v3',
    international: 'https://ark.ap-southeast.bytepluses.com/api/v3',
  },
  apiKeyEnvVars: ['ARK_API_KEY', 'VOLCENGINE_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://www.volcengine.com/docs/82379/1494384',
  notes:
    'Volcengine (China) by default; `region: "international"` is BytePlus ModelArk (separate keys and model ids). Model is a model id or an `ep-…` endpoint id. `thinking: {type}`; `max_tokens` (answer only); reasoning echoed as `reasoning_content`.',
  defaultModel: 'doubao-seed-1-6-251015',
  settings: {
    compat: {
      maxTokensField: 'max_tokens',
      supportsStreamOptions: true,
      thinking: 'thinking-type',
      echoReasoningContent: true,
      supportsDocuments: false,
    },
  },
};
