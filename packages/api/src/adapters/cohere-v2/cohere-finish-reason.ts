import type { FinishReason } from '../../spec/usage.js';

/**
 * The unified finish reason of a Cohere `finish_reason`, keeping the raw value. `ERROR` and
 * `TIMEOUT` (the generation failed or ran out of time) are `error`; v1's `ERROR_TOXIC` and
 * `ERROR_LIMIT` are understood too; anything new is `other`.
 *
 * @see https://docs.cohere.com/reference/chat#response.body.finish_reason
 */
export function mapCohereFinishReason(finishReason: string | undefined): FinishReason {
  switch (finishReason) {
    case 'COMPLETE':
    case 'STOP_SEQUENCE':
      return { unified: 'stop', raw: finishReason };
    case 'MAX_TOKENS':
    case 'ERROR_LIMIT':
      return { unified: 'length', raw: finishReason };
    case 'TOOL_CALL':
      return { unified: 'tool-calls', raw: finishReason };
    case 'ERROR_TOXIC':
      return { unified: 'content-filter', raw: finishReason };
    case 'ERROR':
    case 'TIMEOUT':
      return { unified: 'error', raw: finishReason };
    default:
      return { unified: 'other', raw: finishReason };
  }
}
