import { classifyHttpError, type HttpErrorRule } from '../../shared/classify-http-error.js';
import type { HeaderSource } from '../../shared/headers.js';
import { type ToLlmErrorContext, toLlmError } from '../../shared/to-llm-error.js';
import { isLlmError, type LlmError } from '../../spec/llm-error.js';

/**
 * Anthropic's error wording, tried before the status code (so a 400 that says the prompt is too long
 * is a context overflow, and a 429 that asks for usage credits is a quota, not a rate limit).
 * Error bodies are `{type: 'error', error: {type, message}}`; the classifier matches on
 * `error.type` and `error.message`. The same table classifies in-stream `error` events.
 *
 * | wording (type or message)                                          | reason           | retried |
 * | ------------------------------------------------------------------ | ---------------- | ------- |
 * | `prompt is too long: N tokens > M maximum` (400)                    | context_overflow | no      |
 * | `input length and max_tokens exceed context limit: a + b > c` (400) | context_overflow | no      |
 * | `credit balance is too low` (400), `billing_error` (402)            | quota            | no      |
 * | `reached your specified API usage limits` (400)                     | quota            | no      |
 * | `Extra usage / Usage credits are required for long context` (429)   | quota            | no      |
 * | `Output blocked by content filtering policy` (400)                  | content_filter   | no      |
 * | `request_too_large` (413, the 32 MB request-size limit, in bytes)   | invalid_request  | no      |
 * | `overloaded_error` (529)                                            | overloaded       | yes     |
 * | `rate_limit_error` (429)                                            | rate_limit       | yes     |
 * | `authentication_error` (401) / `permission_error` (403)             | auth / permission| no      |
 * | `not_found_error` (404)                                             | not_found        | no      |
 * | `timeout_error` (504)                                               | timeout          | yes     |
 * | `api_error` (500)                                                   | server           | yes     |
 *
 * @see https://docs.claude.com/en/api/errors
 * @see https://docs.claude.com/en/docs/build-with-claude/context-windows
 */
export const ANTHROPIC_ERROR_RULES: readonly HttpErrorRule[] = [
  {
    reason: 'context_overflow',
    statuses: [400, 413],
    pattern:
      /prompt is too long|input length and `?max_tokens`? exceed context limit|exceeds? the (?:model's )?context window/i,
  },
  {
    reason: 'quota',
    isRetryable: false,
    pattern:
      /credit balance is too low|billing_error|reached your specified api usage limits|(?:extra usage|usage credits) (?:is|are) required/i,
  },
  { reason: 'content_filter', pattern: /content filtering policy/i },
  { reason: 'invalid_request', statuses: [413], pattern: /request_too_large|request exceeds the maximum/i },
  { reason: 'overloaded', pattern: /overloaded_error/i },
  { reason: 'rate_limit', pattern: /rate_limit_error/i },
  { reason: 'auth', pattern: /authentication_error/i },
  { reason: 'permission', pattern: /permission_error/i },
  { reason: 'not_found', pattern: /not_found_error/i },
  { reason: 'timeout', pattern: /timeout_error/i },
  { reason: 'server', pattern: /\bapi_error\b/i },
];

/**
 * The HTTP status Anthropic uses for each `error.type`, so an in-stream error event (which has no
 * status) is classified exactly like the same error before the stream started. Unknown types are 500.
 *
 * @see https://docs.claude.com/en/api/errors#http-errors
 */
export function statusForAnthropicErrorType(type: string | null | undefined): number {
  switch (type) {
    case 'invalid_request_error':
      return 400;
    case 'authentication_error':
      return 401;
    case 'billing_error':
      return 402;
    case 'permission_error':
      return 403;
    case 'not_found_error':
      return 404;
    case 'request_too_large':
      return 413;
    case 'rate_limit_error':
      return 429;
    case 'timeout_error':
      return 504;
    case 'overloaded_error':
      return 529;
    default:
      return 500;
  }
}

/** Where an error happened, for its message and classification. */
export interface AnthropicErrorContext {
  providerId: string;
  url?: string;
  /** The signal of this attempt: aborted by the caller (`aborted`) or by a stall timer (`stream_stall`). */
  signal?: AbortSignal;
  /** Secrets (the API key) to mask in messages. */
  knownSecrets?: readonly string[];
}

/**
 * Classifies an in-stream `error` event (`{type: 'error', error: {type, message}}`) with
 * {@link ANTHROPIC_ERROR_RULES}, as if it had been an HTTP error of the status its type stands for.
 *
 * @see https://docs.claude.com/en/docs/build-with-claude/streaming#error-events
 */
export function classifyAnthropicStreamError(
  payload: { error?: { type?: string | null; message?: string | null } },
  context: AnthropicErrorContext,
): LlmError {
  return classifyHttpError({
    status: statusForAnthropicErrorType(payload.error?.type),
    body: payload,
    providerId: context.providerId,
    rules: ANTHROPIC_ERROR_RULES,
    ...(context.url === undefined ? {} : { url: context.url }),
    ...(context.knownSecrets === undefined ? {} : { knownSecrets: context.knownSecrets }),
  });
}

/**
 * Converts whatever a call through the Anthropic SDK threw into an {@link LlmError}: an `LlmError`
 * anywhere in the cause chain (e.g. a refused redirect the SDK wrapped in `APIConnectionError`) is
 * returned as is; an SDK `APIError` with an HTTP status is classified with
 * {@link ANTHROPIC_ERROR_RULES}, its headers (`retry-after`, `x-should-retry`) and the key masked;
 * anything else goes through `toLlmError` (aborts, timeouts, socket failures).
 */
export function toAnthropicLlmError(error: unknown, context: AnthropicErrorContext): LlmError {
  const wrapped = findLlmError(error);
  if (wrapped !== undefined) return wrapped;
  const base: ToLlmErrorContext = {
    providerId: context.providerId,
    rules: ANTHROPIC_ERROR_RULES,
    ...(context.url === undefined ? {} : { url: context.url }),
    ...(context.signal === undefined ? {} : { signal: context.signal }),
  };
  if (context.signal?.aborted === true) return toLlmError(error, base);
  const http = asSdkStatusError(error);
  if (http === undefined) return toLlmError(error, base);
  return classifyHttpError({
    status: http.status,
    body: http.body,
    providerId: context.providerId,
    rules: ANTHROPIC_ERROR_RULES,
    ...(http.headers === undefined ? {} : { headers: http.headers }),
    ...(context.url === undefined ? {} : { url: context.url }),
    ...(context.knownSecrets === undefined ? {} : { knownSecrets: context.knownSecrets }),
  });
}

function findLlmError(error: unknown): LlmError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    if (isLlmError(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The SDK's `APIError` shape: a numeric HTTP status, the parsed body as `error`, the headers. */
function asSdkStatusError(error: unknown): { status: number; body: unknown; headers?: HeaderSource } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const record = error as { status?: unknown; error?: unknown; headers?: unknown; message?: unknown };
  if (typeof record.status !== 'number' || record.status < 400 || record.status > 599) return undefined;
  return {
    status: record.status,
    body: record.error ?? record.message,
    // Duck-typed: the response comes from undici's fetch, whose `Headers` is not Node's global class.
    ...(isHeaders(record.headers) ? { headers: record.headers } : {}),
  };
}

function isHeaders(value: unknown): value is HeaderSource {
  return typeof value === 'object' && value !== null && typeof (value as { get?: unknown }).get === 'function';
}
