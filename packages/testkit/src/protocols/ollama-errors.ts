import type { MockErrorKind } from '../script/types.js';
import type { ErrorResponse, ResolvedError, WireEvent } from './protocol.js';

/**
 * Ollama errors: `{"error": "..."}` with the HTTP status; once a stream has started, the same
 * object as one more NDJSON line (the status cannot change any more).
 *
 * Ollama documents 400, 404, 429, 500 and 502, plus 401 for its cloud. Wordings come from the
 * Ollama server (`server busy, please try again.  maximum pending requests exceeded` with 503,
 * `model '<name>' not found`, `the input length exceeds the context length`) and its cloud's 429s
 * (session limit vs weekly limit tell a rate limit from a quota). Ollama's context-overflow
 * message carries no token counts, so `requestedTokens`/`limitTokens` are not written into it.
 * A forbidden model has no documented wording; it is a plain 403 `forbidden`.
 *
 * @see https://docs.ollama.com/api/errors
 */

const STATUS: Record<MockErrorKind, number> = {
  rate_limit: 429,
  quota: 429,
  overloaded: 503,
  context_overflow: 400,
  auth: 401,
  permission: 403,
  not_found: 404,
  invalid_request: 400,
  server: 500,
};

function defaultMessage(error: ResolvedError, model: string, inStream: boolean): string {
  switch (error.error) {
    case 'rate_limit':
      return "you've reached your session usage limit, please wait or upgrade to continue";
    case 'quota':
      return "you've reached your weekly usage limit, upgrade for higher limits: https://ollama.com/upgrade";
    case 'overloaded':
      return 'server busy, please try again.  maximum pending requests exceeded';
    case 'context_overflow':
      return 'the input length exceeds the context length';
    case 'auth':
      return 'unauthorized';
    case 'permission':
      return 'forbidden';
    case 'not_found':
      return `model '${model}' not found`;
    case 'invalid_request':
      return 'invalid request';
    default:
      return inStream ? 'an error was encountered while running the model' : 'the model failed to generate a response';
  }
}

/** An Ollama HTTP error response. */
export function ollamaErrorResponse(error: ResolvedError, model: string): ErrorResponse {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return {
    status: error.status ?? STATUS[error.error],
    headers,
    body: JSON.stringify({ error: error.message ?? defaultMessage(error, model, false) }),
  };
}

/** The mid-stream error line: `{"error": "..."}` with no `done` field. */
export function ollamaStreamError(error: ResolvedError, model: string): WireEvent {
  return { data: JSON.stringify({ error: error.message ?? defaultMessage(error, model, true) }) };
}
