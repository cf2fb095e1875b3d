import { randomBytes } from 'node:crypto';
import type { MockErrorKind } from '../script/types.js';
import type { ErrorResponse, ResolvedError } from './protocol.js';

/** One row of Anthropic's error table: the HTTP status, `error.type` and the usual wording. */
export interface AnthropicErrorInfo {
  status: number;
  type: string;
  message: string;
}

/**
 * The status, `error.type` and message Anthropic sends for each neutral error kind.
 *
 * Statuses and types are Anthropic's documented table (400 invalid_request_error, 401
 * authentication_error, 403 permission_error, 404 not_found_error, 429 rate_limit_error, 500
 * api_error, 529 overloaded_error). An exhausted credit balance is a 400 invalid_request_error with
 * the credit-balance sentence, and a context overflow is a 400 "prompt is too long" (both as the API
 * sends them, recorded in client bug reports).
 *
 * @see https://docs.claude.com/en/api/errors
 */
export function anthropicErrorInfo(error: ResolvedError, model: string): AnthropicErrorInfo {
  const kind: MockErrorKind = error.error;
  switch (kind) {
    case 'rate_limit':
      return {
        status: 429,
        type: 'rate_limit_error',
        message: "This request would exceed your account's rate limit. Please try again later.",
      };
    case 'overloaded':
      return { status: 529, type: 'overloaded_error', message: 'Overloaded' };
    case 'quota':
      return {
        status: 400,
        type: 'invalid_request_error',
        message:
          'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
      };
    case 'context_overflow': {
      const limit = error.limitTokens ?? 200_000;
      const requested = error.requestedTokens ?? limit + 1;
      return {
        status: 400,
        type: 'invalid_request_error',
        message: `prompt is too long: ${requested} tokens > ${limit} maximum`,
      };
    }
    case 'auth':
      return { status: 401, type: 'authentication_error', message: 'invalid x-api-key' };
    case 'permission':
      return {
        status: 403,
        type: 'permission_error',
        message: 'Your API key does not have permission to use the specified resource.',
      };
    case 'not_found':
      return { status: 404, type: 'not_found_error', message: `model: ${model || 'unknown'}` };
    case 'invalid_request':
      return { status: 400, type: 'invalid_request_error', message: 'max_tokens: Field required' };
    case 'server':
      return { status: 500, type: 'api_error', message: 'Internal server error' };
    default:
      return { status: 500, type: 'api_error', message: 'Internal server error' };
  }
}

/** A request id in Anthropic's style (`req_` and 24 base62 characters). */
export function anthropicRequestId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let id = 'req_011C';
  for (const byte of randomBytes(20)) id += alphabet[byte % alphabet.length];
  return id;
}

/**
 * The `{type: 'error', error: {type, message}}` object, as sent in an HTTP error body (with the
 * request id) and in the stream's `error` event (without it).
 *
 * @see https://docs.claude.com/en/api/errors
 */
export function anthropicErrorBody(info: AnthropicErrorInfo, message: string, requestId?: string): object {
  const body: Record<string, unknown> = { type: 'error', error: { type: info.type, message } };
  if (requestId !== undefined) body.request_id = requestId;
  return body;
}

/** A whole HTTP error response: status (or the override), body and `request-id` / `retry-after`. */
export function renderAnthropicError(error: ResolvedError, model: string): ErrorResponse {
  const info = anthropicErrorInfo(error, model);
  const requestId = anthropicRequestId();
  const headers: Record<string, string> = { 'request-id': requestId };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return {
    status: error.status ?? info.status,
    headers,
    body: JSON.stringify(anthropicErrorBody(info, error.message ?? info.message, requestId)),
  };
}
