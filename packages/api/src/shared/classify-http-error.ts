import { createLlmError } from '../spec/create-llm-error.js';
import type { LlmError, LlmErrorReason } from '../spec/llm-error.js';
import { parseContextOverflowTokens } from './context-overflow-tokens.js';
import { extractErrorDetails } from './error-body.js';
import { type HeaderSource, readHeader } from './headers.js';
import { redactSecrets, redactUrl } from './redact-secrets.js';
import { parseRetryAfterHeaders, parseRetryInfoDelay } from './retry-after.js';

/**
 * One line of an adapter's table of vendor wording: when `pattern` matches the error body's
 * `type code status message` (or its raw text), the error gets `reason`. Rules are tried in order,
 * before the generic status mapping, so vendor wording wins over the status code.
 */
export interface HttpErrorRule {
  reason: LlmErrorReason;
  pattern: RegExp;
  /** Only for these HTTP statuses; any status when omitted. */
  statuses?: readonly number[];
  /** Overrides the reason's default retryability. */
  isRetryable?: boolean;
}

/** Wording many vendors share; {@link classifyHttpError} tries these after the adapter's own rules. */
export const GENERIC_HTTP_ERROR_RULES: readonly HttpErrorRule[] = [
  {
    reason: 'context_overflow',
    statuses: [400, 413, 422],
    pattern:
      /context[_ ]length[_ ]exceeded|maximum context length|prompt is too long|input is too long|exceeds? (?:the )?context (?:window|limit|length)|input token count.*exceeds|maximum prompt length|too many (?:input )?tokens|reduce the length of the (?:messages|prompt)/i,
  },
  {
    reason: 'quota',
    pattern:
      /insufficient[_ ]quota|credit balance is too low|insufficient (?:credits|balance|funds)|billing[_ ]hard[_ ]limit/i,
  },
  { reason: 'content_filter', pattern: /content[_ ]filter|content[_ ]policy[_ ]violation|content management policy/i },
  { reason: 'overloaded', pattern: /overloaded/i },
];

/**
 * The reason an HTTP status means when no rule matched: 400 invalid_request, 401 auth, 402 quota,
 * 403 permission, 404 not_found, 408 timeout, 409 server (a transient conflict), 413
 * context_overflow, 422 invalid_request, 429 rate_limit, 503/529 overloaded, 504 timeout, other
 * 5xx server, other 4xx invalid_request.
 */
export function reasonForStatus(status: number): LlmErrorReason {
  switch (status) {
    case 400:
    case 422:
      return 'invalid_request';
    case 401:
      return 'auth';
    case 402:
      return 'quota';
    case 403:
      return 'permission';
    case 404:
      return 'not_found';
    case 408:
    case 504:
      return 'timeout';
    case 409:
      return 'server';
    case 413:
      return 'context_overflow';
    case 429:
      return 'rate_limit';
    case 503:
    case 529:
      return 'overloaded';
    default:
      if (status >= 500 && status < 600) return 'server';
      if (status >= 400 && status < 500) return 'invalid_request';
      return 'unknown';
  }
}

const HINTS: Record<LlmErrorReason, string> = {
  rate_limit: 'Rate limited: lower concurrency or request a higher limit.',
  overloaded: 'The provider is overloaded: retry later or use a fallback model.',
  quota: 'Quota or credit exhausted: add credit or raise the spending limit in the provider console.',
  auth: 'Authentication failed: check the API key configured for this provider.',
  permission: "Permission denied: check that the key's project or organization may use this model.",
  not_found: 'Not found: check the model id and the base URL.',
  invalid_request: 'The provider rejected the request: fix the field the message names.',
  context_overflow: 'The request does not fit the context window: compact the history or lower maxOutputTokens.',
  content_filter: 'The provider blocked the content: rephrase the request.',
  server: 'The provider had an internal error: retry later.',
  network: 'Network failure: check connectivity and the base URL.',
  timeout: 'The request timed out: retry, or raise the timeout.',
  stream_stall: 'The stream stalled.',
  aborted: 'The request was aborted.',
  unknown: 'Unexpected response from the provider.',
};

/** Input of {@link classifyHttpError}. */
export interface ClassifyHttpErrorInput {
  status: number;
  headers?: HeaderSource;
  /** The response body, as text or already parsed JSON. */
  body: unknown;
  providerId: string;
  url?: string;
  /** The adapter's table of vendor wording, tried first. */
  rules?: readonly HttpErrorRule[];
  /** Secrets to mask verbatim in the message (e.g. the API key in use). */
  knownSecrets?: readonly string[];
  /** The clock for HTTP-date `retry-after` values. */
  now?: number;
}

/**
 * Turns a non-2xx response into the matching {@link LlmError} subclass: the adapter's rules, then
 * {@link GENERIC_HTTP_ERROR_RULES}, then {@link reasonForStatus}. It reads the wait the server asked
 * for (`retry-after-ms`, `retry-after`, Gemini `RetryInfo`), honours `x-should-retry`, parses token
 * counts of a context overflow, and writes a message that says what to change, with secrets masked.
 *
 * @example
 * throw classifyHttpError({ status: response.status, headers: response.headers, body: await response.text(), providerId: 'openai', rules: OPENAI_ERROR_RULES });
 */
export function classifyHttpError(input: ClassifyHttpErrorInput): LlmError {
  const parsedBody = parseBody(input.body);
  const details = extractErrorDetails(parsedBody);
  const haystack =
    [details.type, details.code, details.status, details.message].filter((part) => part !== undefined).join(' ') ||
    (typeof input.body === 'string' ? input.body : '');
  const rule = [...(input.rules ?? []), ...GENERIC_HTTP_ERROR_RULES].find(
    (candidate) =>
      (candidate.statuses === undefined || candidate.statuses.includes(input.status)) &&
      candidate.pattern.test(haystack),
  );
  const reason = rule?.reason ?? reasonForStatus(input.status);
  const shouldRetry = readHeader(input.headers, 'x-should-retry')?.trim().toLowerCase();
  const headerRetryable = shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : undefined;
  const isRetryable = rule?.isRetryable ?? headerRetryable;
  const retryAfterMs = parseRetryAfterHeaders(input.headers, input.now) ?? parseRetryInfoDelay(parsedBody);
  const vendorMessage = truncate(redactSecrets(details.message ?? haystack, input.knownSecrets), 1_000);
  const tokens = reason === 'context_overflow' ? parseContextOverflowTokens(details.message ?? haystack) : undefined;
  const vendorPart = vendorMessage === '' ? '' : ` ${vendorMessage.replace(/[.\s]+$/, '')}.`;
  return createLlmError({
    reason,
    message: `Provider "${input.providerId}" answered HTTP ${input.status}:${vendorPart} ${HINTS[reason]}`,
    status: input.status,
    providerId: input.providerId,
    body: parsedBody,
    ...(input.url === undefined ? {} : { url: redactUrl(input.url) }),
    ...(isRetryable === undefined ? {} : { isRetryable }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(tokens?.requestedTokens === undefined ? {} : { requestedTokens: tokens.requestedTokens }),
    ...(tokens?.limitTokens === undefined ? {} : { limitTokens: tokens.limitTokens }),
  });
}

function parseBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}
