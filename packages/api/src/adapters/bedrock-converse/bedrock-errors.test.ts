import { describe, expect, it } from 'vitest';
import { classifyHttpError } from '../../shared/classify-http-error.js';
import type { LlmErrorReason } from '../../spec/llm-error.js';
import { isContextOverflowError } from '../../spec/llm-error-classes.js';
import { BEDROCK_ERROR_RULES, bedrockErrorType, bedrockStreamError, withBedrockErrorType } from './bedrock-errors.js';

function classify(status: number, type: string | undefined, message: string) {
  return classifyHttpError({
    status,
    body: type === undefined ? { message } : { message, type },
    providerId: 'bedrock',
    rules: BEDROCK_ERROR_RULES,
  });
}

describe('BEDROCK_ERROR_RULES', () => {
  it.each([
    [429, 'ThrottlingException', 'Too many tokens, please wait before trying again.', 'rate_limit'],
    [429, 'ModelNotReadyException', 'Model is not ready', 'overloaded'],
    [503, 'ServiceUnavailableException', 'Bedrock is unable to process your request.', 'overloaded'],
    [400, 'ServiceQuotaExceededException', 'Your request exceeds the service quota.', 'quota'],
    [408, 'ModelTimeoutException', 'Model timed out', 'timeout'],
    [424, 'ModelErrorException', 'The model failed', 'server'],
    [500, 'InternalServerException', 'oops', 'server'],
    [403, 'UnrecognizedClientException', 'The security token included in the request is invalid.', 'auth'],
    [403, 'ExpiredTokenException', 'The security token included in the request is expired', 'auth'],
    [403, 'AccessDeniedException', "You don't have access to the model with the specified model ID.", 'permission'],
    [404, 'ResourceNotFoundException', 'Could not resolve the foundation model', 'not_found'],
    [400, 'ValidationException', 'Malformed input request', 'invalid_request'],
    [400, 'ValidationException', 'Input is too long for requested model.', 'context_overflow'],
    [
      400,
      'ValidationException',
      'The model returned the following errors: Output blocked by content filtering policy',
      'content_filter',
    ],
    [403, undefined, 'Forbidden', 'permission'],
  ] as Array<[number, string | undefined, string, LlmErrorReason]>)(
    '%i %s "%s" is %s',
    (status, type, message, reason) => {
      expect(classify(status, type, message).reason).toBe(reason);
    },
  );

  it('parses both Anthropic overflow wordings Bedrock passes through', () => {
    const tooLong = classify(400, 'ValidationException', 'prompt is too long: 208310 tokens > 200000 maximum');
    expect(isContextOverflowError(tooLong) && [tooLong.requestedTokens, tooLong.limitTokens]).toEqual([
      208_310, 200_000,
    ]);
    const sum = classify(
      400,
      'ValidationException',
      'input length and `max_tokens` exceed context limit: 197000 + 8192 > 200000, decrease input length or `max_tokens` and try again',
    );
    expect(isContextOverflowError(sum) && [sum.requestedTokens, sum.limitTokens]).toEqual([205_192, 200_000]);
  });
});

describe('withBedrockErrorType', () => {
  it('copies the x-amzn-ErrorType name into the error body, leaving successes alone', async () => {
    const fetch = withBedrockErrorType(
      async () =>
        new Response('{"message":"Too many requests"}', {
          status: 429,
          headers: { 'x-amzn-ErrorType': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/' },
        }),
    );
    const response = await fetch('https://example.com');
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ message: 'Too many requests', type: 'ThrottlingException' });
    const ok = new Response('{}', { status: 200 });
    expect(await withBedrockErrorType(async () => ok)('https://example.com')).toBe(ok);
    const text = await withBedrockErrorType(
      async () =>
        new Response('Service Unavailable', {
          status: 503,
          headers: { 'x-amzn-errortype': 'ServiceUnavailableException' },
        }),
    )('https://example.com');
    expect(await text.json()).toEqual({ message: 'Service Unavailable', type: 'ServiceUnavailableException' });
  });

  it('reads the exception name from the header', () => {
    expect(bedrockErrorType(new Headers({ 'x-amzn-errortype': 'AccessDeniedException:http://x/' }))).toBe(
      'AccessDeniedException',
    );
    expect(bedrockErrorType(new Headers())).toBeUndefined();
  });
});

describe('bedrockStreamError', () => {
  it.each([
    ['throttlingException', 'Too many requests', 'rate_limit', true],
    ['serviceUnavailableException', 'unavailable', 'overloaded', true],
    ['internalServerException', 'oops', 'server', true],
    ['modelStreamErrorException', 'A streaming error occurred.', 'server', true],
    ['validationException', 'bad input', 'invalid_request', false],
    ['somethingNewException', 'new', 'server', true],
  ] as Array<[string, string, LlmErrorReason, boolean]>)('%s is %s', (type, message, reason, retryable) => {
    const error = bedrockStreamError(type, { message }, 'bedrock');
    expect(error.reason).toBe(reason);
    expect(error.isRetryable).toBe(retryable);
    expect(error.message).toContain(`sent a ${type} in the stream`);
    expect(error.status).toBeUndefined();
  });

  it("uses a modelStreamErrorException's original status", () => {
    const error = bedrockStreamError(
      'modelStreamErrorException',
      { message: 'x', originalStatusCode: 429, originalMessage: 'rate limited' },
      'bedrock',
    );
    expect(error.reason).toBe('rate_limit');
  });
});
