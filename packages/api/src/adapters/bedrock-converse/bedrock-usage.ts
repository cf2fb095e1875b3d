import { createUsage } from '../../shared/usage.js';
import type { Usage } from '../../spec/usage.js';
import type { BedrockUsage } from './bedrock-wire.js';

/**
 * Converse usage as {@link Usage}. Bedrock's `inputTokens` leaves out the tokens read from and
 * written to the prompt cache (`totalTokens` counts them all), so it is the `noCache` part and the
 * three add up to `input.total`; nothing is counted twice. Converse does not report reasoning
 * tokens separately: they are inside `outputTokens`, so `output.reasoning` is 0.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html
 */
export function mapBedrockUsage(usage: BedrockUsage | undefined): Usage {
  return createUsage({
    inputNoCache: usage?.inputTokens ?? 0,
    cacheRead: usage?.cacheReadInputTokens ?? 0,
    cacheWrite: usage?.cacheWriteInputTokens ?? 0,
    outputTotal: usage?.outputTokens ?? 0,
  });
}
