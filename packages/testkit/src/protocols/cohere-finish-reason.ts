import type { MockStopReason } from '../script/types.js';

/**
 * The Cohere v2 `finish_reason` for a neutral stop reason.
 *
 * Cohere's values are COMPLETE, STOP_SEQUENCE, MAX_TOKENS, TOOL_CALL, ERROR and TIMEOUT: a refusal
 * or a paused turn is a COMPLETE message, and filtered output is the closest thing to an ERROR.
 *
 * @see https://docs.cohere.com/reference/chat#response.body.finish_reason
 */
export function mapCohereFinishReason(stopReason: MockStopReason): string {
  switch (stopReason) {
    case 'tool_use':
      return 'TOOL_CALL';
    case 'max_tokens':
      return 'MAX_TOKENS';
    case 'stop_sequence':
      return 'STOP_SEQUENCE';
    case 'content_filter':
      return 'ERROR';
    default:
      return 'COMPLETE';
  }
}
