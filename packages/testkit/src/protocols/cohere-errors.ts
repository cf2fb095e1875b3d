import type { MockErrorKind } from '../script/types.js';
import type { ErrorResponse, ResolvedError, WireEvent } from './protocol.js';

/**
 * Cohere errors: `{"message": "..."}` with the HTTP status; mid-stream, a `message-end` event whose
 * delta carries `finish_reason: "ERROR"` and the `error` text (the v2 chat-stream schema's field
 * for "an error message if an error occurred during the generation").
 *
 * Cohere documents 400, 401, 402, 404, 429, 499 and 500. It documents no status for an
 * overloaded service or a forbidden model: those use 503 and 403, the plain HTTP meanings.
 *
 * @see https://docs.cohere.com/reference/errors
 * @see https://docs.cohere.com/reference/chat-stream
 */

const STATUS: Record<MockErrorKind, number> = {
  rate_limit: 429,
  quota: 402,
  overloaded: 503,
  context_overflow: 400,
  auth: 401,
  permission: 403,
  not_found: 404,
  invalid_request: 400,
  server: 500,
};

function defaultMessage(error: ResolvedError, model: string): string {
  switch (error.error) {
    case 'rate_limit':
      return 'You are using a Trial key, which is limited to 10 API calls / minute. Upgrade to a Production key to increase your rate limit.';
    case 'quota':
      return 'Please add or update your payment method at https://dashboard.cohere.com/billing?tab=payment to continue';
    case 'overloaded':
      return 'service unavailable, please try again later';
    case 'context_overflow': {
      const limit = error.limitTokens ?? 128000;
      const requested = error.requestedTokens ?? limit + 1;
      return (
        `too many tokens: total number of tokens in the prompt cannot exceed ${limit} - received ${requested}. ` +
        'Try using a shorter prompt, or enabling prompt truncating. See https://docs.cohere.com/reference/generate for more details.'
      );
    }
    case 'auth':
      return 'invalid api token';
    case 'permission':
      return 'you do not have access to this model';
    case 'not_found':
      return `model '${model}' not found, make sure the correct model ID was used and that you have access to the model.`;
    case 'invalid_request':
      return 'invalid request: message must be at least 1 token long or tool results must be specified.';
    default:
      return 'internal server error, this has been reported to our developers';
  }
}

/** A Cohere HTTP error response. */
export function cohereErrorResponse(error: ResolvedError, model: string): ErrorResponse {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return {
    status: error.status ?? STATUS[error.error],
    headers,
    body: JSON.stringify({ message: error.message ?? defaultMessage(error, model) }),
  };
}

/** The in-stream error: a closing `message-end` with `finish_reason: "ERROR"` and the error text. */
export function cohereStreamError(error: ResolvedError, model: string): WireEvent {
  const payload = {
    type: 'message-end',
    delta: { error: error.message ?? defaultMessage(error, model), finish_reason: 'ERROR' },
  };
  return { event: 'message-end', data: JSON.stringify(payload) };
}
