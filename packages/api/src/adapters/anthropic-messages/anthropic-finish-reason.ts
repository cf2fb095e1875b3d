import type { FinishReason } from '../../spec/usage.js';

/**
 * Maps Anthropic's `stop_reason` to the unified finish reason, keeping the raw value. `pause_turn`
 * (a long server-tool turn paused; send the message back as is to continue) is `pause`;
 * `model_context_window_exceeded` (generation stopped because the context window filled) is
 * `length`, like `max_tokens`; an unknown or missing value is `other`, never an exception.
 *
 * @see https://docs.claude.com/en/api/messages#response-stop-reason
 * @see https://docs.claude.com/en/docs/build-with-claude/handling-stop-reasons
 */
export function mapAnthropicStopReason(stopReason: string | null | undefined): FinishReason {
  const raw = stopReason ?? undefined;
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
      return { unified: 'stop', raw };
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return { unified: 'length', raw };
    case 'tool_use':
      return { unified: 'tool-calls', raw };
    case 'pause_turn':
      return { unified: 'pause', raw };
    case 'refusal':
      return { unified: 'refusal', raw };
    default:
      return { unified: 'other', raw };
  }
}
