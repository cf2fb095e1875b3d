import { classifyHttpError, type HttpErrorRule } from '../../shared/classify-http-error.js';
import type { FetchFunction } from '../../shared/provider-fetch.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import type { LlmError } from '../../spec/llm-error.js';
import { isContextOverflowError } from '../../spec/llm-error-classes.js';

/**
 * Bedrock's error wording, tried before the generic rules. Bedrock names the error in the
 * `x-amzn-ErrorType` header (`ThrottlingException:http://internal.amazon.com/coral/...`) and puts
 * only `{"message": ...}` in the body; {@link withBedrockErrorType} copies the name into the body's
 * `type` so these rules see it, and stream exception frames are classified the same way.
 *
 * | wording / exception                                           | reason           |
 * | ------------------------------------------------------------- | ---------------- |
 * | 400 "Input is too long for requested model", "prompt is too long: N tokens > M maximum", "input length and `max_tokens` exceed context limit", "too many input tokens", "exceeds the context window" | context_overflow (counts parsed when present) |
 * | 400 "content filtering policy", "blocked by ... guardrail"    | content_filter   |
 * | ThrottlingException (429; also "Too many tokens, please wait") | rate_limit      |
 * | ServiceQuotaExceededException                                 | quota            |
 * | ServiceUnavailableException (503), ModelNotReadyException (429) | overloaded     |
 * | ModelTimeoutException (408)                                   | timeout          |
 * | InternalServerException, InternalFailure, ModelErrorException (424), ModelStreamErrorException | server |
 * | UnrecognizedClientException, ExpiredTokenException, InvalidSignatureException, IncompleteSignature, MissingAuthenticationToken, InvalidClientTokenId, SignatureDoesNotMatch | auth |
 * | AccessDeniedException (403)                                   | permission       |
 * | ResourceNotFoundException (404)                               | not_found        |
 * | ValidationException (400), ConflictException                  | invalid_request  |
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_Errors
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html
 */
export const BEDROCK_ERROR_RULES: readonly HttpErrorRule[] = [
  {
    reason: 'context_overflow',
    statuses: [400, 413],
    pattern:
      /input is too long|prompt is too long|input length and `?max_tokens`? exceed|too many input tokens|exceeds? (?:the )?(?:model'?s? )?(?:maximum )?context (?:window|length|limit)|maximum context length/i,
  },
  {
    reason: 'content_filter',
    statuses: [400],
    pattern: /content filtering policy|blocked by (?:the )?(?:content filter|guardrail)/i,
  },
  { reason: 'rate_limit', pattern: /\bThrottlingException\b/i },
  { reason: 'quota', pattern: /\bServiceQuotaExceededException\b/i, isRetryable: false },
  { reason: 'overloaded', pattern: /\bServiceUnavailableException\b|\bModelNotReadyException\b/i },
  { reason: 'timeout', pattern: /\bModelTimeoutException\b/i },
  {
    reason: 'server',
    pattern: /\bInternalServerException\b|\bInternalFailure\b|\bModelErrorException\b|\bModelStreamErrorException\b/i,
  },
  {
    reason: 'auth',
    pattern:
      /\bUnrecognizedClientException\b|\bExpiredTokenException\b|\bInvalidSignatureException\b|\bIncompleteSignature\b|\bMissingAuthenticationToken\b|\bInvalidClientTokenId\b|\bSignatureDoesNotMatch\b/i,
  },
  { reason: 'permission', pattern: /\bAccessDeniedException\b/i },
  { reason: 'not_found', pattern: /\bResourceNotFoundException\b/i },
  { reason: 'invalid_request', pattern: /\bValidationException\b|\bConflictException\b/i },
];

/** The exception name of an error response: `x-amzn-ErrorType` up to its first `:`. */
export function bedrockErrorType(headers: { get(name: string): string | null }): string | undefined {
  const value = headers.get('x-amzn-errortype')?.split(':')[0]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

const MAX_ERROR_BODY_BYTES = 65_536;

/**
 * Wraps a fetch so a non-2xx response's body carries the exception name from `x-amzn-ErrorType` as
 * `type` (when the body does not name one), which the classifier then matches. The vendor's message
 * and status are left as they are; at most 64 KiB of the body is read.
 */
export function withBedrockErrorType(fetch: FetchFunction): FetchFunction {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.ok) return response;
    const errorType = bedrockErrorType(response.headers);
    if (errorType === undefined) return response;
    const text = await readBounded(response, MAX_ERROR_BODY_BYTES);
    return new Response(JSON.stringify(bedrockErrorBody(text, errorType)), {
      status: response.status,
      statusText: response.statusText,
      headers: new Headers([...response.headers]),
    });
  };
}

/**
 * An error body with the exception name as `type`: the JSON object as sent when it already names a
 * `type`, else with `type` added; text that is not a JSON object becomes the `message`.
 */
export function bedrockErrorBody(text: string, errorType: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>;
      return typeof record.type === 'string' ? record : { ...record, type: errorType };
    }
  } catch {
    // Not JSON: keep the text as the message.
  }
  return { message: text, type: errorType };
}

async function readBounded(response: Response, limit: number): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    while (bytes < limit) {
      const { value, done } = await reader.read();
      if (done) break;
      const chunk = value.byteLength + bytes > limit ? value.subarray(0, limit - bytes) : value;
      bytes += chunk.byteLength;
      text += decoder.decode(chunk, { stream: true });
    }
    return text + decoder.decode();
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** The HTTP status each ConverseStream exception member documents. */
const STREAM_EXCEPTION_STATUS: Record<string, number> = {
  throttlingException: 429,
  serviceUnavailableException: 503,
  validationException: 400,
  modelStreamErrorException: 424,
  internalServerException: 500,
};

/**
 * The error of an in-stream exception frame (`:message-type: exception`, `:exception-type:
 * throttlingException`, ...), classified by the same rules as HTTP errors: the member's documented
 * status and its message; a `modelStreamErrorException` that carries the model's `originalStatusCode`
 * is classified by that status instead (a 429 from the model is a rate limit, not a server error).
 */
export function bedrockStreamError(
  exceptionType: string,
  payload: Record<string, unknown>,
  providerId: string,
): LlmError {
  const originalStatus = typeof payload.originalStatusCode === 'number' ? payload.originalStatusCode : undefined;
  const status = originalStatus ?? STREAM_EXCEPTION_STATUS[exceptionType] ?? 500;
  const type = exceptionType.charAt(0).toUpperCase() + exceptionType.slice(1);
  // A model error that names the model's own status is classified by that status and wording.
  const body = originalStatus === undefined ? { ...payload, type } : { ...payload };
  const classified = classifyHttpError({ status, body, providerId, rules: BEDROCK_ERROR_RULES });
  const overflow = isContextOverflowError(classified) ? classified : undefined;
  return createLlmError({
    reason: classified.reason,
    message: classified.message.replace(/answered HTTP \d+:/, `sent a ${exceptionType} in the stream:`),
    isRetryable: classified.isRetryable,
    providerId,
    body,
    ...(overflow?.requestedTokens === undefined ? {} : { requestedTokens: overflow.requestedTokens }),
    ...(overflow?.limitTokens === undefined ? {} : { limitTokens: overflow.limitTokens }),
  });
}
