import type { FinishReason } from '../../spec/usage.js';

/**
 * The unified finish reason of a Converse `stopReason`, keeping the raw value. A guardrail or
 * content filter is `content-filter`; `model_context_window_exceeded` (the prompt plus the output
 * reached the context window while generating) is `length`; malformed output or tool use is `error`;
 * anything new is `other`.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_MessageStopEvent.html
 */
export function mapBedrockStopReason(stopReason: string | undefined): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return { unified: 'stop', raw: stopReason };
    case 'tool_use':
      return { unified: 'tool-calls', raw: stopReason };
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return { unified: 'length', raw: stopReason };
    case 'guardrail_intervened':
    case 'content_filtered':
      return { unified: 'content-filter', raw: stopReason };
    case 'malformed_model_output':
    case 'malformed_tool_use':
      return { unified: 'error', raw: stopReason };
    default:
      return { unified: 'other', raw: stopReason };
  }
}
