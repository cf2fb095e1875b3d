import type { MockStopReason } from '../script/types.js';

/**
 * The Gemini `finishReason` for a neutral stop reason.
 *
 * Gemini has no tool-use or refusal value: a turn that calls functions ends with `STOP`, and
 * blocked output ends with `SAFETY`. `pause_turn` has no counterpart, so it becomes `OTHER`.
 *
 * @see https://ai.google.dev/api/generate-content#FinishReason
 */
export function mapGeminiFinishReason(stopReason: MockStopReason): string {
  switch (stopReason) {
    case 'end_turn':
    case 'tool_use':
    case 'stop_sequence':
      return 'STOP';
    case 'max_tokens':
      return 'MAX_TOKENS';
    case 'refusal':
    case 'content_filter':
      return 'SAFETY';
    default:
      return 'OTHER';
  }
}
