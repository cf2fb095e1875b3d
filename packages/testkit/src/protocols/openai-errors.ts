import type { ErrorResponse, ParsedRequest, ResolvedError } from './protocol.js';

/** Which OpenAI API the error is for: their wording differs for context overflow. */
export type OpenAiSurface = 'chat' | 'responses';

/** One row of OpenAI's error table: the HTTP status and the `error` object's fields. */
export interface OpenAiErrorInfo {
  status: number;
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

/** `sk-abc…wxyz` with the middle starred, as OpenAI echoes a wrong key back. */
function maskKey(key: string): string {
  if (key.length <= 8) return '*'.repeat(key.length);
  return `${key.slice(0, 3)}${'*'.repeat(key.length - 7)}${key.slice(-4)}`;
}

function presentedKey(request: ParsedRequest | undefined): string {
  const header = request?.headers.authorization ?? request?.headers['api-key'] ?? '';
  const key = header.replace(/^Bearer\s+/i, '').trim();
  return key ? maskKey(key) : 'sk-mock****';
}

function retryHint(error: ResolvedError): string {
  if (error.retryAfterMs !== undefined) return `${error.retryAfterMs}ms`;
  if (error.retryAfterSeconds !== undefined) return `${error.retryAfterSeconds}s`;
  return '20s';
}

/**
 * The status, `type`, `param`, `code` and message OpenAI sends for each neutral error kind.
 *
 * Statuses and wording follow OpenAI's error-code guide (401 incorrect API key, 403 unsupported
 * region, 429 rate limit vs `insufficient_quota`, 500 server error, 503 overloaded). Chat
 * Completions reports a context overflow as "This model's maximum context length is M tokens.
 * However, your messages resulted in N tokens…" on `param: 'messages'`; the Responses API says
 * "Your input exceeds the context window of this model…" on `param: 'input'`, without counts.
 *
 * @see https://developers.openai.com/docs/guides/error-codes
 */
export function openaiErrorInfo(
  error: ResolvedError,
  request: ParsedRequest | undefined,
  surface: OpenAiSurface,
): OpenAiErrorInfo {
  const model = request?.model || 'gpt-4o';
  switch (error.error) {
    case 'rate_limit':
      return {
        status: 429,
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
        message: `Rate limit reached for ${model} in organization org-mock on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in ${retryHint(error)}. Visit https://platform.openai.com/account/rate-limits to learn more.`,
      };
    case 'quota':
      return {
        status: 429,
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
        message:
          'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
      };
    case 'overloaded':
      return {
        status: 503,
        type: 'service_unavailable_error',
        param: null,
        code: 'server_is_overloaded',
        message: 'The engine is currently overloaded, please try again later.',
      };
    case 'context_overflow': {
      if (surface === 'responses') {
        return {
          status: 400,
          type: 'invalid_request_error',
          param: 'input',
          code: 'context_length_exceeded',
          message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
        };
      }
      const limit = error.limitTokens ?? 128_000;
      const requested = error.requestedTokens ?? limit + 1;
      return {
        status: 400,
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
        message: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${requested} tokens. Please reduce the length of the messages.`,
      };
    }
    case 'auth':
      return {
        status: 401,
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
        message: `Incorrect API key provided: ${presentedKey(request)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      };
    case 'permission':
      return {
        status: 403,
        type: 'request_forbidden',
        param: null,
        code: 'unsupported_country_region_territory',
        message: 'Country, region, or territory not supported',
      };
    case 'not_found':
      return {
        status: 404,
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
        message: `The model \`${model}\` does not exist or you do not have access to it.`,
      };
    case 'invalid_request':
      return {
        status: 400,
        type: 'invalid_request_error',
        param: 'model',
        code: 'missing_required_parameter',
        message: "Missing required parameter: 'model'.",
      };
    default:
      return {
        status: 500,
        type: 'server_error',
        param: null,
        code: null,
        message: 'The server had an error while processing your request. Sorry about that!',
      };
  }
}

/** The `{error: {message, type, param, code}}` object of every OpenAI error body and chat stream error. */
export function openaiErrorBody(info: OpenAiErrorInfo, message: string): { error: Omit<OpenAiErrorInfo, 'status'> } {
  return { error: { message, type: info.type, param: info.param, code: info.code } };
}

/**
 * A whole HTTP error response. `retry-after` is in seconds; `retry-after-ms` is the millisecond
 * header the official SDKs prefer when present. The request id comes from `responseHeaders`.
 *
 * @see https://github.com/openai/openai-node#retries
 */
export function renderOpenAiError(
  error: ResolvedError,
  request: ParsedRequest | undefined,
  surface: OpenAiSurface,
): ErrorResponse {
  const info = openaiErrorInfo(error, request, surface);
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  if (error.retryAfterMs !== undefined) headers['retry-after-ms'] = String(error.retryAfterMs);
  return {
    status: error.status ?? info.status,
    headers,
    body: JSON.stringify(openaiErrorBody(info, error.message ?? info.message)),
  };
}
