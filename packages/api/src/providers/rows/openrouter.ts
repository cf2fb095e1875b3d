import { MISTRAL_TOOL_CALL_ID_RULES } from '../../adapters/openai-chat/openai-chat-settings.js';
import { ANTHROPIC_TOOL_CALL_ID_RULES } from '../../shared/tool-call-ids.js';
import type { ProviderEntry } from '../provider-entry.js';

/**
 * OpenRouter: many vendors' models behind one OpenAI-compatible API (`vendor/model` ids).
 *
 * - Base URL `https://openrouter.ai/api/v1`, `Authorization: Bearer`.
 *   @see https://openrouter.ai/docs/api-reference/overview
 * - App attribution: `HTTP-Referer` (the app's URL) and `X-Title` (its name; newer docs also accept
 *   `X-OpenRouter-Title`) are optional; this package sends its own as defaults, which
 *   `headers: {'HTTP-Referer': …, 'X-Title': …}` replace. @see https://openrouter.ai/docs/app-attribution
 * - Reasoning: `reasoning: {effort}` / `{max_tokens}`, read from the `reasoning` field; the
 *   `reasoning_details` of an assistant message (Anthropic signatures, Gemini and OpenAI encrypted
 *   reasoning) are sent back unchanged. @see https://openrouter.ai/docs/use-cases/reasoning-tokens
 * - `cache_control` breakpoints are passed to Anthropic and Gemini models (others cache
 *   automatically). @see https://openrouter.ai/docs/features/prompt-caching
 * - PDFs as `file` parts. @see https://openrouter.ai/docs/features/multimodal/pdfs
 * - Tool-call ids are forwarded to the model's vendor; ids are made valid for Anthropic
 *   (`[a-zA-Z0-9_-]`) and Mistral (9 alphanumerics) models. Unsure: whether OpenRouter rewrites ids
 *   itself; these rules are harmless if it does.
 */
export const openrouterProvider: ProviderEntry = {
  id: 'openrouter',
  name: 'OpenRouter',
  adapter: 'openai-chat',
  baseURL: 'https://openrouter.ai/api/v1',
  apiKeyEnvVars: ['OPENROUTER_API_KEY'],
  authStyle: 'bearer',
  headers: { 'HTTP-Referer': 'https://www.npmjs.com/package/@boxagnts/api', 'X-Title': 'BoxAgnts' },
  docsURL: 'https://openrouter.ai/docs/api-reference/overview',
  notes:
    'Model ids are `vendor/model`. Sends `HTTP-Referer` and `X-Title` attribution defaults (override with `headers`). `reasoning: {effort | max_tokens}`; `reasoning_details` echoed; `cache_control` markers; tool-call ids fitted to Anthropic and Mistral models.',
  modelsDevId: 'openrouter',
  defaultModel: 'openrouter/auto',
  settings: {
    compat: {
      maxTokensField: 'max_tokens',
      supportsStreamOptions: true,
      thinking: 'openrouter',
      echoReasoningDetails: true,
      supportsCacheControl: true,
      supportsDocuments: true,
    },
  },
  modelOverrides: [
    { match: 'anthropic/*', settings: { compat: { toolCallIdRules: ANTHROPIC_TOOL_CALL_ID_RULES } } },
    { match: 'mistralai/*', settings: { compat: { toolCallIdRules: MISTRAL_TOOL_CALL_ID_RULES } } },
  ],
};
