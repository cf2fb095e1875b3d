import { MISTRAL_TOOL_CALL_ID_RULES } from '../../adapters/openai-chat/openai-chat-settings.js';
import type { ProviderEntry } from '../provider-entry.js';

/**
 * Mistral's chat API (Chat Completions shape) at `https://api.mistral.ai/v1`, bearer key. Quirks:
 * tool-call ids must be exactly 9 characters of `[a-zA-Z0-9]` (every id sent is rewritten), only
 * `max_tokens` is known, and `stream_options` is refused (usage arrives on the last chunk anyway).
 * Magistral's reasoning arrives as structured `thinking` content parts, which the Chat Completions
 * adapter does not read (unverified beyond Mistral's docs): thinking is not switched on.
 *
 * @see https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post
 * @see https://docs.mistral.ai/capabilities/function_calling/
 */
export const mistralProvider: ProviderEntry = {
  id: 'mistral',
  name: 'Mistral AI',
  adapter: 'openai-chat',
  baseURL: 'https://api.mistral.ai/v1',
  apiKeyEnvVars: ['MISTRAL_API_KEY'],
  authStyle: 'bearer',
  docsURL: 'https://docs.mistral.ai/api/',
  notes: 'Tool-call ids rewritten to exactly 9 alphanumeric characters; max_tokens; no stream_options.',
  modelsDevId: 'mistral',
  defaultModel: 'mistral-large-latest',
  settings: {
    compat: {
      maxTokensField: 'max_tokens',
      supportsStreamOptions: false,
      toolCallIdRules: MISTRAL_TOOL_CALL_ID_RULES,
      thinking: 'none',
      supportsDocuments: false,
    },
  },
};
