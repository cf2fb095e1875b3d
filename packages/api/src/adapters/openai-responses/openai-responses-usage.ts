import { createUsage } from '../../shared/usage.js';
import type { Usage } from '../../spec/usage.js';
import type { OpenAIResponsesUsage } from './openai-responses-wire.js';

/**
 * Maps the Responses `usage` object to {@link Usage}. `input_tokens` already counts the cached
 * tokens (`input_tokens_details.cached_tokens`) and those written to the cache
 * (`cache_write_tokens`), so they are split out of it, never added; `output_tokens` already counts
 * `output_tokens_details.reasoning_tokens`. A missing usage is all zeros.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
 */
export function mapOpenAIResponsesUsage(usage: OpenAIResponsesUsage | null | undefined): Usage {
  if (usage === null || usage === undefined) return createUsage();
  return createUsage({
    inputTotal: usage.input_tokens ?? 0,
    cacheRead: usage.input_tokens_details?.cached_tokens ?? 0,
    cacheWrite: usage.input_tokens_details?.cache_write_tokens ?? 0,
    outputTotal: usage.output_tokens ?? 0,
    reasoning: usage.output_tokens_details?.reasoning_tokens ?? 0,
  });
}
