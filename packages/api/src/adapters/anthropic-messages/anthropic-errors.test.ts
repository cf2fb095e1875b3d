import { describe, expect, it } from 'vitest';
import { classifyHttpError } from '../../shared/classify-http-error.js';
import { isContextOverflowError, NetworkError } from '../../spec/llm-error-classes.js';
import {
  ANTHROPIC_ERROR_RULES,
  classifyAnthropicStreamError,
  statusForAnthropicErrorType,
  toAnthropicLlmError,
} from './anthropic-errors.js';

function classify(status: number, type: string, message: string) {
  return classifyHttpError({
    status,
    body: { type: 'error', error: { type, message } },
    providerId: 'anthropic',
    rules: ANTHROPIC_ERROR_RULES,
  });
}

describe('ANTHROPIC_ERROR_RULES', () => {
  it.each([
    [400, 'invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum', 'context_overflow', false],
    [
      400,
      'invalid_request_error',
      'input length and `max_tokens` exceed context limit: 197000 + 8192 > 200000',
      'context_overflow',
      false,
    ],
    [400, 'invalid_request_error', 'Your credit balance is too low to access the Anthropic API.', 'quota', false],
    [
      400,
      'invalid_request_error',
      'You have reached your specified API usage limits. You will regain access on 2026-04-01 at 00:00 UTC.',
      'quota',
      false,
    ],
    [429, 'rate_limit_error', 'Extra usage is required for long context requests.', 'quota', false],
    [402, 'billing_error', 'Payment required', 'quota', false],
    [400, 'invalid_request_error', 'Output blocked by content filtering policy', 'content_filter', false],
    [413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.', 'invalid_request', false],
    [529, 'overloaded_error', 'Overloaded', 'overloaded', true],
    [429, 'rate_limit_error', "This request would exceed your account's rate limit.", 'rate_limit', true],
    [401, 'authentication_error', 'invalid x-api-key', 'auth', false],
    [403, 'permission_error', 'Your API key does not have permission', 'permission', false],
    [404, 'not_found_error', 'model: claude-nope', 'not_found', false],
    [504, 'timeout_error', 'Request timed out', 'timeout', true],
    [500, 'api_error', 'Internal server error', 'server', true],
    [400, 'invalid_request_error', 'max_tokens: Field required', 'invalid_request', false],
  ] as const)('HTTP %i %s "%s" is %s (retryable: %s)', (status, type, message, reason, retryable) => {
    const error = classify(status, type, message);
    expect(error.reason).toBe(reason);
    expect(error.isRetryable).toBe(retryable);
  });

  it('parses both token counts of a context overflow', () => {
    const error = classify(400, 'invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum');
    expect(isContextOverflowError(error) && [error.requestedTokens, error.limitTokens]).toEqual([208_310, 200_000]);
    const sum = classify(
      400,
      'invalid_request_error',
      'input length and `max_tokens` exceed context limit: 197000 + 8192 > 200000',
    );
    expect(isContextOverflowError(sum) && [sum.requestedTokens, sum.limitTokens]).toEqual([205_192, 200_000]);
  });
});

describe('statusForAnthropicErrorType', () => {
  it.each([
    ['invalid_request_error', 400],
    ['authentication_error', 401],
    ['billing_error', 402],
    ['permission_error', 403],
    ['not_found_error', 404],
    ['request_too_large', 413],
    ['rate_limit_error', 429],
    ['timeout_error', 504],
    ['overloaded_error', 529],
    ['api_error', 500],
    [undefined, 500],
  ] as const)('%s → %i', (type, status) => {
    expect(statusForAnthropicErrorType(type)).toBe(status);
  });
});

describe('classifyAnthropicStreamError', () => {
  it('classifies an in-stream error like the HTTP error of its type, key masked', () => {
    const error = classifyAnthropicStreamError(
      { error: { type: 'overloaded_error', message: 'Overloaded for key sk-secret-123456' } },
      { providerId: 'anthropic', knownSecrets: ['sk-secret-123456'] },
    );
    expect([error.reason, error.status, error.isRetryable]).toEqual(['overloaded', 529, true]);
    expect(error.message).not.toContain('sk-secret-123456');
  });
});

describe('toAnthropicLlmError', () => {
  const context = { providerId: 'anthropic', url: 'https://api.anthropic.com/v1/messages' };

  it('classifies an SDK status error with its retry-after header', () => {
    const sdkError = Object.assign(new Error('429'), {
      status: 429,
      error: { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } },
      headers: { get: (name: string) => (name === 'retry-after' ? '7' : null) },
    });
    const error = toAnthropicLlmError(sdkError, context);
    expect([error.reason, error.retryAfterMs, error.url]).toEqual(['rate_limit', 7000, context.url]);
  });

  it('returns an LlmError found in the cause chain (e.g. wrapped by the SDK)', () => {
    const inner = new NetworkError({ providerId: 'anthropic', message: 'cut' });
    const wrapped = Object.assign(new Error('Connection error.'), { cause: inner });
    expect(toAnthropicLlmError(wrapped, context)).toBe(inner);
  });

  it('is aborted when the attempt signal was aborted by the caller, whatever was thrown', () => {
    const controller = new AbortController();
    controller.abort();
    const error = toAnthropicLlmError(Object.assign(new Error('aborted'), { status: 500 }), {
      ...context,
      signal: controller.signal,
    });
    expect(error.reason).toBe('aborted');
  });

  it('is a network error for a socket failure', () => {
    const failure = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
    });
    expect(toAnthropicLlmError(failure, context).reason).toBe('network');
  });
});
