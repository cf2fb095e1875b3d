import type { HttpErrorRule } from '../../shared/classify-http-error.js';
import { parseContextOverflowTokens } from '../../shared/context-overflow-tokens.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import type { LlmError, LlmErrorReason } from '../../spec/llm-error.js';
import type { OpenAIResponsesError } from './openai-responses-wire.js';

/**
 * OpenAI's error wording, matched against `type code message` of an HTTP error body, an in-stream
 * `error` event or a failed response's `error`. Order matters: the first match wins.
 *
 * | wording (code / message)                                           | reason           | retried |
 * | ------------------------------------------------------------------ | ---------------- | ------- |
 * | `insufficient_quota`, "exceeded your current quota", billing limit | quota            | no      |
 * | `rate_limit_exceeded`, "Rate limit reached"                        | rate_limit       | yes     |
 * | `context_length_exceeded`, "exceeds the context window"            | context_overflow | no      |
 * | `server_is_overloaded`, "overloaded", `slow_down`                  | overloaded       | yes     |
 * | `server_error`, "The server had an error"                          | server           | yes     |
 * | `invalid_api_key`, "Incorrect API key"                             | auth             | no      |
 * | `unsupported_country_region_territory`                             | permission       | no      |
 * | `model_not_found`                                                  | not_found        | no      |
 * | `invalid_prompt`, `content_policy_violation`, `bio_policy`         | content_filter   | no      |
 * | `invalid_image*`, `image_*`, `missing_required_parameter`, …       | invalid_request  | no      |
 *
 * Anything else falls back to the generic rules and the HTTP status (429 rate_limit, 503
 * overloaded, 5xx server, ...).
 *
 * @see https://platform.openai.com/docs/guides/error-codes
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-error
 */
export const OPENAI_RESPONSES_ERROR_RULES: readonly HttpErrorRule[] = [
  {
    reason: 'quota',
    isRetryable: false,
    pattern: /insufficient_quota|exceeded your current quota|billing[_ ]hard[_ ]limit|billing_not_active/i,
  },
  { reason: 'rate_limit', pattern: /rate_limit_exceeded|rate limit reached|too many requests/i },
  {
    reason: 'context_overflow',
    pattern: /context_length_exceeded|exceeds the context window|maximum context length/i,
  },
  { reason: 'overloaded', pattern: /server_is_overloaded|\boverloaded\b|slow_down/i },
  { reason: 'server', pattern: /server_error|the server had an error/i },
  { reason: 'auth', pattern: /invalid_api_key|incorrect api key/i },
  { reason: 'permission', pattern: /unsupported_country_region_territory/i },
  { reason: 'not_found', pattern: /model_not_found/i },
  {
    reason: 'content_filter',
    pattern: /invalid_prompt|content_policy_violation|bio_policy|flagged as potentially violating/i,
  },
  {
    reason: 'invalid_request',
    pattern:
      /invalid_image|invalid_base64_image|image_too_(?:large|small)|image_parse_error|image_file|unsupported_image|empty_image_file|failed_to_download_image|missing_required_parameter|data_residency_mismatch/i,
  },
];

/** Where an error reported inside a 200 stream came from, for the message. */
export type OpenAIResponsesStreamErrorSource = 'error event' | 'failed response';

/**
 * Classifies an error the API reports inside a stream (an `error` event, or `response.failed` with
 * its `error`) with the same wording table as HTTP errors. A code nobody listed is `server`
 * (retryable): a stream that opened fine and then failed is the server's problem far more often
 * than the request's. The wait OpenAI names in rate-limit messages ("Please try again in 20s")
 * becomes `retryAfterMs`; a context overflow gets its token counts when the message states them.
 *
 * @see https://platform.openai.com/docs/api-reference/responses-streaming/error
 */
export function classifyOpenAIResponsesStreamError(
  error: OpenAIResponsesError,
  context: { providerId: string; source: OpenAIResponsesStreamErrorSource },
): LlmError {
  const code = error.code ?? undefined;
  const message = error.message ?? '';
  const haystack = [error.type, code, message].filter((part) => part !== undefined && part !== '').join(' ');
  const rule = OPENAI_RESPONSES_ERROR_RULES.find((candidate) => candidate.pattern.test(haystack));
  const reason: LlmErrorReason = rule?.reason ?? 'server';
  const retryAfterMs = reason === 'rate_limit' ? parseTryAgainIn(message) : undefined;
  const tokens = reason === 'context_overflow' ? parseContextOverflowTokens(message) : undefined;
  const detail = [message.replace(/[.\s]+$/, ''), code === undefined ? undefined : `(${code})`]
    .filter((part) => part !== undefined && part !== '')
    .join(' ');
  return createLlmError({
    reason,
    message: `Provider "${context.providerId}" reported an error in the stream (${context.source}): ${detail || 'no details'}.`,
    providerId: context.providerId,
    body: error,
    ...(rule?.isRetryable === undefined ? {} : { isRetryable: rule.isRetryable }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(tokens?.requestedTokens === undefined ? {} : { requestedTokens: tokens.requestedTokens }),
    ...(tokens?.limitTokens === undefined ? {} : { limitTokens: tokens.limitTokens }),
  });
}

/**
 * The wait in OpenAI's rate-limit wording, "Please try again in 20s" / "in 1.5s" / "in 300ms" /
 * "in 1m30s", in milliseconds.
 */
export function parseTryAgainIn(message: string): number | undefined {
  const match = /try again in\s+((?:\d+(?:\.\d+)?(?:ms|h|m|s)\s*)+)/i.exec(message);
  if (match?.[1] === undefined) return undefined;
  let total = 0;
  for (const part of match[1].matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/gi)) {
    const value = Number(part[1]);
    const unit = part[2]?.toLowerCase();
    total += unit === 'ms' ? value : unit === 's' ? value * 1_000 : unit === 'm' ? value * 60_000 : value * 3_600_000;
  }
  return Math.ceil(total);
}
