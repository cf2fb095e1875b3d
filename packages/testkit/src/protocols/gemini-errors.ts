import type { MockErrorKind } from '../script/types.js';
import type { ErrorResponse, ResolvedError } from './protocol.js';

/**
 * Gemini errors in the `google.rpc.Status` shape: `{error: {code, message, status, details}}`.
 *
 * Statuses, gRPC codes and wording follow the Gemini troubleshooting table and bodies the API is
 * seen to return (429 with QuotaFailure + RetryInfo, 400 "The input token count (N) exceeds ...",
 * 400 API_KEY_INVALID for a bad key, 503 "The model is overloaded").
 *
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting
 * @see https://ai.google.dev/gemini-api/docs/rate-limits
 */

const TYPE = 'type.googleapis.com/google.rpc.';

/** The gRPC status name Google pairs with each HTTP status. */
const RPC_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const DEFAULT_STATUS: Record<MockErrorKind, number> = {
  rate_limit: 429,
  quota: 429,
  overloaded: 503,
  context_overflow: 400,
  // Gemini answers a bad API key with 400 INVALID_ARGUMENT and reason API_KEY_INVALID, not 401.
  auth: 400,
  permission: 403,
  not_found: 404,
  invalid_request: 400,
  server: 500,
};

/** Google's duration string for RetryInfo (`"34.4s"`), from milliseconds or seconds. */
export function geminiRetryDelay(error: ResolvedError): string | undefined {
  const seconds =
    error.retryAfterMs !== undefined
      ? error.retryAfterMs / 1000
      : error.retryAfterSeconds !== undefined
        ? error.retryAfterSeconds
        : undefined;
  if (seconds === undefined) return undefined;
  return `${Number(seconds.toFixed(3))}s`;
}

function quotaDetails(kind: 'rate_limit' | 'quota', model: string, delay: string | undefined): unknown[] {
  // Gemini tells a per-minute rate limit from a daily quota by the violated quota's id and limit;
  // the message wording is the same for both.
  const perMinute = kind === 'rate_limit';
  const details: unknown[] = [
    {
      '@type': `${TYPE}Help`,
      links: [
        { description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' },
      ],
    },
    {
      '@type': `${TYPE}QuotaFailure`,
      violations: [
        {
          quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
          quotaId: perMinute
            ? 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier'
            : 'GenerateRequestsPerDayPerProjectPerModel-FreeTier',
          quotaDimensions: { location: 'global', model },
          quotaValue: perMinute ? '10' : '250',
        },
      ],
    },
  ];
  if (delay !== undefined) details.push({ '@type': `${TYPE}RetryInfo`, retryDelay: delay });
  return details;
}

function defaultMessage(error: ResolvedError, model: string, apiVersion: string, delay: string | undefined): string {
  switch (error.error) {
    case 'rate_limit':
    case 'quota': {
      const limit = error.error === 'rate_limit' ? 10 : 250;
      const retry = delay !== undefined ? `\nPlease retry in ${delay}.` : '';
      return (
        'You exceeded your current quota, please check your plan and billing details. For more information on ' +
        'this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. \n* Quota exceeded for metric: ' +
        `generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: ${limit}, model: ${model}${retry}`
      );
    }
    case 'overloaded':
      return 'The model is overloaded. Please try again later.';
    case 'context_overflow': {
      const limit = error.limitTokens ?? 1048576;
      const requested = error.requestedTokens ?? limit + 1;
      return `The input token count (${requested}) exceeds the maximum number of tokens allowed (${limit}).`;
    }
    case 'auth':
      return 'API key not valid. Please pass a valid API key.';
    case 'permission':
      return 'The caller does not have permission';
    case 'not_found':
      return (
        `models/${model} is not found for API version ${apiVersion}, or is not supported for generateContent. ` +
        'Call ListModels to see the list of available models and their supported methods.'
      );
    case 'invalid_request':
      return 'Request contains an invalid argument.';
    default:
      return 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting';
  }
}

function kindDetails(error: ResolvedError, model: string, delay: string | undefined, message: string): unknown[] {
  switch (error.error) {
    case 'rate_limit':
    case 'quota':
      return quotaDetails(error.error, model, delay);
    case 'auth':
      return [
        {
          '@type': `${TYPE}ErrorInfo`,
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'generativelanguage.googleapis.com' },
        },
        { '@type': `${TYPE}LocalizedMessage`, locale: 'en-US', message },
      ];
    default:
      return delay !== undefined ? [{ '@type': `${TYPE}RetryInfo`, retryDelay: delay }] : [];
  }
}

/** The Gemini error body (`{error: {...}}`) and its HTTP status. */
export function geminiErrorBody(
  error: ResolvedError,
  model: string,
  apiVersion = 'v1beta',
): { status: number; body: { error: Record<string, unknown> } } {
  const status = error.status ?? DEFAULT_STATUS[error.error];
  const delay = geminiRetryDelay(error);
  const message = error.message ?? defaultMessage(error, model, apiVersion, delay);
  const details = kindDetails(error, model, delay, message);
  const body: Record<string, unknown> = {
    code: status,
    message,
    status: RPC_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION'),
  };
  if (details.length > 0) body.details = details;
  return { status, body: { error: body } };
}

/** A Gemini HTTP error response. */
export function geminiErrorResponse(error: ResolvedError, model: string, apiVersion?: string): ErrorResponse {
  const { status, body } = geminiErrorBody(error, model, apiVersion);
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=UTF-8' };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return { status, headers, body: JSON.stringify(body) };
}
