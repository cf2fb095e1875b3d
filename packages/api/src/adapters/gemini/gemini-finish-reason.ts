import type { FinishReason } from '../../spec/usage.js';

/**
 * Maps a Gemini `finishReason` (or a `promptFeedback.blockReason` when the prompt itself was
 * blocked) to the unified finish reason, keeping the raw value. Gemini has no tool-use value: a turn
 * that calls functions ends with `STOP`, so `hasToolCalls` turns that into `tool-calls`. Values this
 * table does not know become `other`.
 *
 * @see https://ai.google.dev/api/generate-content#FinishReason
 * @see https://ai.google.dev/api/generate-content#BlockReason
 */
export function mapGeminiFinishReason(raw: string | undefined, hasToolCalls: boolean): FinishReason {
  switch (raw) {
    case 'STOP':
      return { unified: hasToolCalls ? 'tool-calls' : 'stop', raw };
    case 'MAX_TOKENS':
      return { unified: 'length', raw };
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
      return { unified: 'content-filter', raw };
    case 'MALFORMED_FUNCTION_CALL':
    case 'UNEXPECTED_TOOL_CALL':
    case 'TOO_MANY_TOOL_CALLS':
    case 'MISSING_THOUGHT_SIGNATURE':
      return { unified: 'error', raw };
    default:
      return { unified: 'other', raw };
  }
}

/**
 * Maps `promptFeedback.blockReason`, sent instead of candidates when the prompt itself was blocked:
 * whatever the reason (`SAFETY`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `IMAGE_SAFETY`, `OTHER`, …), the
 * answer is a content filter.
 *
 * @see https://ai.google.dev/api/generate-content#BlockReason
 */
export function mapGeminiBlockReason(raw: string): FinishReason {
  return { unified: 'content-filter', raw };
}
