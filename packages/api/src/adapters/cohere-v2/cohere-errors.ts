import { classifyHttpError, type HttpErrorRule } from '../../shared/classify-http-error.js';
import { extractErrorDetails } from '../../shared/error-body.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import type { LlmError } from '../../spec/llm-error.js';
import { isContextOverflowError } from '../../spec/llm-error-classes.js';

/**
 * Cohere's error wording, tried before the generic rules; every error body is `{"message": ...}`.
 *
 * | status / wording                                                         | reason           |
 * | ------------------------------------------------------------------------ | ---------------- |
 * | "too many tokens: total number of tokens in the prompt cannot exceed N - received M", "too many tokens: size limit exceeded by N tokens", "too many tokens: max tokens must be less than or equal to N" | context_overflow (counts of the first wording parsed) |
 * | 429 "You are using a Trial key, which is limited to N API calls / minute", "past the per minute request limit", "trial token rate limit exceeded" | rate_limit |
 * | 402 "add or update your payment method", "maximum billing amount"       | quota            |
 * | 401 "invalid api token", "no api key supplied", "Your API key has expired"; 498 (invalid token) | auth |
 * | 499 (request cancelled on Cohere's side; the docs say retry)             | server (retried) |
 * | "service unavailable", "overloaded"                                      | overloaded       |
 * | "content was blocked", "blocked output"                                   | content_filter   |
 *
 * Everything else falls to the generic rules and the status (404 not_found, 500 server, 503
 * overloaded, 504 timeout, ...).
 *
 * @see https://docs.cohere.com/reference/errors
 */
export const COHERE_ERROR_RULES: readonly HttpErrorRule[] = [
  { reason: 'context_overflow', pattern: /too many tokens|number of tokens in the prompt cannot exceed/i },
  { reason: 'rate_limit', pattern: /trial key|per minute request limit|rate limit exceeded|too many requests/i },
  { reason: 'quota', pattern: /payment method|billing amount|billing limit/i },
  { reason: 'auth', pattern: /invalid api token|no api key supplied|api key has expired/i },
  { reason: 'auth', statuses: [498], pattern: /[\s\S]*/ },
  { reason: 'server', statuses: [499], pattern: /[\s\S]*/, isRetryable: true },
  { reason: 'overloaded', pattern: /service unavailable|overloaded/i },
  { reason: 'content_filter', pattern: /content (?:was )?blocked|blocked (?:input|output)/i },
];

const PROMPT_LIMIT = /cannot exceed\s*(\d[\d,]*)\s*-\s*received\s*(\d[\d,]*)/i;

/**
 * Adds the token counts of Cohere's "prompt cannot exceed N - received M" wording (which the shared
 * parser does not know) to a context-overflow error; any other error is returned as it is.
 */
export function withCohereTokenCounts(error: LlmError): LlmError {
  if (!isContextOverflowError(error) || error.requestedTokens !== undefined) return error;
  const message = extractErrorDetails(error.body).message ?? '';
  const match = PROMPT_LIMIT.exec(message);
  if (match?.[1] === undefined || match[2] === undefined) return error;
  return createLlmError({
    reason: 'context_overflow',
    message: error.message,
    isRetryable: error.isRetryable,
    body: error.body,
    cause: error.cause,
    limitTokens: Number(match[1].replace(/,/g, '')),
    requestedTokens: Number(match[2].replace(/,/g, '')),
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.providerId === undefined ? {} : { providerId: error.providerId }),
    ...(error.url === undefined ? {} : { url: error.url }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
  });
}

/**
 * The error of a stream that ends with `finish_reason: "ERROR"` and an `error` text in its
 * `message-end` delta, classified by the same wording (a message nothing matches is a retryable
 * `server` error).
 *
 * @see https://docs.cohere.com/reference/chat-stream
 */
export function cohereStreamError(errorText: string, providerId: string): LlmError {
  const classified = classifyHttpError({
    status: 500,
    body: { message: errorText },
    providerId,
    rules: COHERE_ERROR_RULES,
  });
  const counted = withCohereTokenCounts(classified);
  const overflow = isContextOverflowError(counted) ? counted : undefined;
  return createLlmError({
    reason: counted.reason,
    message: counted.message.replace(/answered HTTP \d+:/, 'reported an error in the stream:'),
    isRetryable: counted.isRetryable,
    providerId,
    body: counted.body,
    ...(overflow?.requestedTokens === undefined ? {} : { requestedTokens: overflow.requestedTokens }),
    ...(overflow?.limitTokens === undefined ? {} : { limitTokens: overflow.limitTokens }),
  });
}
