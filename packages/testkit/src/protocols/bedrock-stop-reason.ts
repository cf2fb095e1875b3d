import type { MockStopReason } from '../script/types.js';

/**
 * The Bedrock Converse `stopReason` for a neutral stop reason.
 *
 * Converse has no refusal or pause value: a refusal or filtered output becomes `content_filtered`
 * and a paused turn `end_turn`.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_MessageStopEvent.html
 */
export function mapBedrockStopReason(stopReason: MockStopReason): string {
  switch (stopReason) {
    case 'tool_use':
      return 'tool_use';
    case 'max_tokens':
      return 'max_tokens';
    case 'stop_sequence':
      return 'stop_sequence';
    case 'refusal':
    case 'content_filter':
      return 'content_filtered';
    default:
      return 'end_turn';
  }
}
