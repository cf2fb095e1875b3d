import type { FinishReason } from '../../spec/usage.js';

/**
 * Maps a Chat Completions `finish_reason` to the unified reason, keeping the raw value. Values
 * outside the OpenAI set (DeepSeek's `insufficient_system_resource`, `model_context_window_exceeded`,
 * new ones) are `other` and never throw.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
 * @see https://openrouter.ai/docs/api-reference/errors (`error` when a stream fails mid-generation)
 */
export function mapFinishReason(raw: string | undefined): FinishReason {
  switch (raw) {
    case 'stop':
      return { unified: 'stop', raw };
    case 'length':
      return { unified: 'length', raw };
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool-calls', raw };
    case 'content_filter':
      return { unified: 'content-filter', raw };
    case 'error':
      return { unified: 'error', raw };
    default:
      return { unified: 'other', raw };
  }
}
