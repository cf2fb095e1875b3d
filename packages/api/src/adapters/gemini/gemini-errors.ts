import { classifyHttpError, type HttpErrorRule } from '../../shared/classify-http-error.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import type { LlmError } from '../../spec/llm-error.js';

/**
 * Gemini's error wording (google.rpc.Status bodies: `{error: {code, message, status, details}}`),
 * tried before the generic status mapping:
 *
 * | HTTP | status              | wording                                                                 | reason             |
 * | ---- | ------------------- | ----------------------------------------------------------------------- | ------------------ |
 * | 400  | INVALID_ARGUMENT    | `API key not valid. Please pass a valid API key.` (ErrorInfo API_KEY_INVALID) | auth         |
 * | 400  | INVALID_ARGUMENT    | `API key expired. Please renew the API key.`                            | auth               |
 * | 403  | PERMISSION_DENIED   | `Method doesn't allow unregistered callers` (no key sent)               | auth               |
 * | 403  | PERMISSION_DENIED   | `Your API key was reported as leaked.`                                  | auth               |
 * | 400  | INVALID_ARGUMENT    | `The input token count (N) exceeds the maximum number of tokens allowed (M).` | context_overflow |
 * | 400  | FAILED_PRECONDITION | `User location is not supported for the API use.` / free tier not in your country | permission |
 * | 429  | RESOURCE_EXHAUSTED  | `… Quota exceeded for metric: …, limit: 0` (the tier has no quota for the model) | quota     |
 * | 429  | RESOURCE_EXHAUSTED  | QuotaFailure `quotaId` per day / per month (see {@link refineGeminiError}) | quota           |
 * | 429  | RESOURCE_EXHAUSTED  | QuotaFailure per minute, or Vertex `Resource exhausted. Please try again later.` | rate_limit |
 * | 503  | UNAVAILABLE         | `The model is overloaded. Please try again later.`                      | overloaded         |
 * | 500  | INTERNAL            | `An internal error has occurred.`                                       | server             |
 * | 504  | DEADLINE_EXCEEDED   | `Deadline exceeded`                                                     | timeout            |
 * | 404  | NOT_FOUND           | `models/x is not found for API version v1beta …`                        | not_found          |
 *
 * RetryInfo `retryDelay` (e.g. `"34.4s"`) is read by the shared classifier and honoured by the
 * retry policy.
 *
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting
 * @see https://ai.google.dev/gemini-api/docs/rate-limits
 * @see https://cloud.google.com/apis/design/errors
 */
export const GEMINI_ERROR_RULES: readonly HttpErrorRule[] = [
  { reason: 'auth', pattern: /API key not valid|API_KEY_INVALID|API key expired|reported as leaked/i },
  { reason: 'auth', statuses: [403], pattern: /unregistered callers/i },
  {
    reason: 'context_overflow',
    statuses: [400, 413],
    pattern: /input token count.*exceeds the maximum number of tokens/i,
  },
  { reason: 'permission', pattern: /User location is not supported|not available in your country/i },
  { reason: 'quota', statuses: [429], pattern: /\blimit: 0\b/i },
  { reason: 'overloaded', statuses: [503], pattern: /overloaded|UNAVAILABLE/i },
];

const LONG_WINDOW = /per_?day|daily|per_?month|monthly/i;

/**
 * Tells a quota from a rate limit on a 429: Gemini words both "You exceeded your current quota", so
 * the violated quota in the `QuotaFailure` detail decides. A per-day or per-month `quotaId` (e.g.
 * `GenerateRequestsPerDayPerProjectPerModel-FreeTier`) or `quotaMetric` will not reset within the
 * retry window, so the error becomes `quota` (not retried); per-minute limits stay `rate_limit`.
 *
 * @see https://ai.google.dev/gemini-api/docs/rate-limits
 * @see https://cloud.google.com/apis/design/errors#quotafailure
 */
export function refineGeminiError(error: LlmError): LlmError {
  if (error.reason !== 'rate_limit') return error;
  const violation = quotaViolations(error.body).find(
    (candidate) => LONG_WINDOW.test(candidate.quotaId) || LONG_WINDOW.test(candidate.quotaMetric),
  );
  if (violation === undefined) return error;
  const label = violation.quotaId || violation.quotaMetric;
  return createLlmError({
    reason: 'quota',
    message: `${vendorPrefix(error)} The quota ${label} is used up and resets only after its window: wait for the reset, or raise the quota (Google AI Studio or the Cloud console).`,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.providerId === undefined ? {} : { providerId: error.providerId }),
    ...(error.url === undefined ? {} : { url: error.url }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    body: error.body,
  });
}

/**
 * Classifies an error object Gemini sent inside a stream (`data: {"error": {...}}`) the same way as
 * an HTTP error response, using its `code` as the status.
 */
export function geminiStreamError(
  error: { code?: number | undefined; message?: string | undefined; status?: string | undefined },
  options: { providerId: string; knownSecrets?: readonly string[] },
): LlmError {
  const status = typeof error.code === 'number' && error.code >= 400 ? error.code : 500;
  return refineGeminiError(
    classifyHttpError({
      status,
      body: { error },
      providerId: options.providerId,
      rules: GEMINI_ERROR_RULES,
      ...(options.knownSecrets === undefined ? {} : { knownSecrets: options.knownSecrets }),
    }),
  );
}

/** The classifier's message up to the vendor wording, without its rate-limit hint. */
function vendorPrefix(error: LlmError): string {
  const cut = error.message.lastIndexOf(' Rate limited:');
  return cut === -1 ? error.message : error.message.slice(0, cut);
}

function quotaViolations(body: unknown): Array<{ quotaId: string; quotaMetric: string }> {
  const root = Array.isArray(body) ? body[0] : body;
  const error = isRecord(root) && isRecord(root.error) ? root.error : root;
  if (!isRecord(error) || !Array.isArray(error.details)) return [];
  const violations: Array<{ quotaId: string; quotaMetric: string }> = [];
  for (const detail of error.details) {
    if (!isRecord(detail) || !Array.isArray(detail.violations)) continue;
    if (typeof detail['@type'] === 'string' && !detail['@type'].endsWith('QuotaFailure')) continue;
    for (const violation of detail.violations) {
      if (!isRecord(violation)) continue;
      violations.push({
        quotaId: typeof violation.quotaId === 'string' ? violation.quotaId : '',
        quotaMetric: typeof violation.quotaMetric === 'string' ? violation.quotaMetric : '',
      });
    }
  }
  return violations;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
