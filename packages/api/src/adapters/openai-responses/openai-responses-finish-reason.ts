import type { FinishReason } from '../../spec/usage.js';

/** What decides how a Responses API response ended. */
export interface OpenAIResponsesOutcome {
  /** `response.status`: `completed`, `incomplete`, `failed`, `cancelled`, ... */
  status: string | undefined;
  /** `response.incomplete_details.reason` when the status is `incomplete`. */
  incompleteReason: string | undefined;
  /** Whether the output holds a function or custom tool call. */
  hasToolCalls: boolean;
  /** Whether the output holds a refusal content part. */
  hasRefusal: boolean;
}

/**
 * Maps how a response ended to the unified finish reason. The Responses API has no stop reason: a
 * response is `completed` (a tool call in the output means the model wants it run; a refusal part
 * means it declined), or `incomplete` with `incomplete_details.reason` `max_output_tokens` or
 * `content_filter`. Anything else is `other` with the vendor value kept in `raw`.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-status
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-incomplete_details
 */
export function mapOpenAIResponsesFinishReason(outcome: OpenAIResponsesOutcome): FinishReason {
  switch (outcome.status) {
    case 'completed':
      if (outcome.hasToolCalls) return { unified: 'tool-calls', raw: 'completed' };
      if (outcome.hasRefusal) return { unified: 'refusal', raw: 'completed' };
      return { unified: 'stop', raw: 'completed' };
    case 'incomplete':
      return mapIncompleteReason(outcome.incompleteReason);
    case 'failed':
      return { unified: 'error', raw: 'failed' };
    default:
      return { unified: 'other', raw: outcome.status };
  }
}

function mapIncompleteReason(reason: string | undefined): FinishReason {
  switch (reason) {
    case 'max_output_tokens':
      return { unified: 'length', raw: reason };
    case 'content_filter':
      return { unified: 'content-filter', raw: reason };
    default:
      return { unified: 'other', raw: reason ?? 'incomplete' };
  }
}
