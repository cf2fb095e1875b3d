import { createUsage } from '../../shared/usage.js';
import type { Usage } from '../../spec/usage.js';
import type { CohereUsage } from './cohere-wire.js';

/**
 * Cohere usage as {@link Usage}, from `tokens` (every token the model read and wrote, which is what
 * fills the context window), with `cached_tokens` (the prompt tokens that hit the cache, a part of
 * `tokens.input_tokens`) as `cacheRead`. `billed_units` (fewer: the chat template and cache hits are
 * not billed) is used only when `tokens` is missing, and then its input plus the cache hits is the
 * total; the adapter keeps it as `billed_units` in the message's `cohere` provider metadata. Cohere
 * reports no reasoning count, so thinking tokens are inside `output.text`; it has no cache writes.
 *
 * @see https://docs.cohere.com/reference/chat#response.body.usage
 */
export function mapCohereUsage(usage: CohereUsage | undefined): Usage {
  const cached = usage?.cached_tokens ?? 0;
  const tokens = usage?.tokens;
  const billed = usage?.billed_units;
  if (tokens?.input_tokens === undefined && billed?.input_tokens !== undefined) {
    // Billed input leaves the cache hits out: they add to it.
    return createUsage({
      inputNoCache: billed.input_tokens,
      cacheRead: cached,
      outputTotal: tokens?.output_tokens ?? billed.output_tokens ?? 0,
    });
  }
  const inputTotal = tokens?.input_tokens ?? 0;
  return createUsage({
    inputTotal,
    cacheRead: Math.min(cached, inputTotal),
    outputTotal: tokens?.output_tokens ?? billed?.output_tokens ?? 0,
  });
}
