import { createUsage } from '../../shared/usage.js';
import type { Usage } from '../../spec/usage.js';
import type { AnthropicUsage } from './anthropic-wire.js';

/**
 * Combines two usage reports of one message: a field the later one reports (not null) replaces the
 * earlier value, a field it leaves out keeps it. `message_start` carries the input counts and the
 * first output token; each `message_delta` carries cumulative counts (older API versions only
 * `output_tokens`), so the last report wins field by field and nothing is added twice.
 *
 * @see https://docs.claude.com/en/docs/build-with-claude/streaming#event-types
 */
export function mergeAnthropicUsage(
  earlier: AnthropicUsage | undefined,
  later: AnthropicUsage | undefined,
): AnthropicUsage | undefined {
  if (later === undefined) return earlier;
  if (earlier === undefined) return later;
  return {
    input_tokens: later.input_tokens ?? earlier.input_tokens,
    cache_creation_input_tokens: later.cache_creation_input_tokens ?? earlier.cache_creation_input_tokens,
    cache_read_input_tokens: later.cache_read_input_tokens ?? earlier.cache_read_input_tokens,
    output_tokens: later.output_tokens ?? earlier.output_tokens,
    output_tokens_details: later.output_tokens_details ?? earlier.output_tokens_details,
  };
}

/**
 * Converts Anthropic usage to the unified {@link Usage}. Anthropic's `input_tokens` leaves out the
 * cached tokens, which come as `cache_read_input_tokens` and `cache_creation_input_tokens`, so the
 * total input is their sum (never counting a cached token twice). `output_tokens` includes thinking;
 * `output_tokens_details.thinking_tokens`, where the API sends it, is the reasoning part.
 *
 * @see https://docs.claude.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance
 * @see https://docs.claude.com/en/api/messages#response-usage
 */
export function mapAnthropicUsage(usage: AnthropicUsage | undefined): Usage {
  return createUsage({
    inputNoCache: usage?.input_tokens ?? 0,
    cacheRead: usage?.cache_read_input_tokens ?? 0,
    cacheWrite: usage?.cache_creation_input_tokens ?? 0,
    outputTotal: usage?.output_tokens ?? 0,
    reasoning: usage?.output_tokens_details?.thinking_tokens ?? 0,
  });
}
