import { describe, expect, it } from 'vitest';
import {
  isAuthenticationError,
  isContentFilterError,
  isContextOverflowError,
  isOverloadedError,
  isQuotaExceededError,
  isRateLimitError,
} from '../spec/llm-error-classes.js';
import { classifyHttpError, type HttpErrorRule, reasonForStatus } from './classify-http-error.js';

describe('reasonForStatus', () => {
  it.each([
    [400, 'invalid_request'],
    [401, 'auth'],
    [402, 'quota'],
    [403, 'permission'],
    [404, 'not_found'],
    [408, 'timeout'],
    [409, 'server'],
    [413, 'context_overflow'],
    [418, 'invalid_request'],
    [422, 'invalid_request'],
    [429, 'rate_limit'],
    [500, 'server'],
    [502, 'server'],
    [503, 'overloaded'],
    [504, 'timeout'],
    [529, 'overloaded'],
    [599, 'server'],
    [302, 'unknown'],
  ] as const)('%i -> %s', (status, reason) => {
    expect(reasonForStatus(status)).toBe(reason);
  });
});

describe('classifyHttpError', () => {
  it('maps a 429 with retry-after to a RateLimitError with the wait', () => {
    const error = classifyHttpError({
      status: 429,
      headers: new Headers({ 'retry-after': '12' }),
      body: '{"error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}',
      providerId: 'anthropic',
      url: 'https://api.anthropic.com/v1/messages',
    });
    expect(isRateLimitError(error)).toBe(true);
    expect(error).toMatchObject({
      reason: 'rate_limit',
      status: 429,
      retryAfterMs: 12_000,
      isRetryable: true,
      providerId: 'anthropic',
    });
    expect(error.message).toContain('per-minute rate limit');
    expect(error.message).toContain('lower concurrency');
    expect(error.body).toMatchObject({ error: { type: 'rate_limit_error' } });
  });

  it('lets vendor wording win over the status: a 400 "prompt is too long" is a context overflow with counts', () => {
    const error = classifyHttpError({
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' },
      },
      providerId: 'anthropic',
    });
    expect(isContextOverflowError(error)).toBe(true);
    if (!isContextOverflowError(error)) return;
    expect(error.requestedTokens).toBe(208_310);
    expect(error.limitTokens).toBe(200_000);
    expect(error.isRetryable).toBe(false);
    expect(error.message).toContain('compact the history');
  });

  it('recognises OpenAI insufficient_quota on a 429 as quota, not a rate limit', () => {
    const error = classifyHttpError({
      status: 429,
      body: {
        error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' },
      },
      providerId: 'openai',
    });
    expect(isQuotaExceededError(error)).toBe(true);
    expect(error.isRetryable).toBe(false);
  });

  it('reads Gemini RetryInfo when no header says how long to wait', () => {
    const error = classifyHttpError({
      status: 429,
      body: [
        {
          error: {
            code: 429,
            status: 'RESOURCE_EXHAUSTED',
            message: 'Resource has been exhausted',
            details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' }],
          },
        },
      ],
      providerId: 'gemini',
    });
    expect(error).toMatchObject({ reason: 'rate_limit', retryAfterMs: 34_400 });
  });

  it('applies adapter rules before the generic ones, honouring their statuses and retryability', () => {
    const rules: HttpErrorRule[] = [
      { reason: 'content_filter', pattern: /SAFETY/, statuses: [400] },
      { reason: 'overloaded', pattern: /capacity/i, isRetryable: true },
    ];
    const safety = classifyHttpError({
      status: 400,
      body: { error: { status: 'SAFETY', message: 'blocked' } },
      providerId: 'g',
      rules,
    });
    expect(isContentFilterError(safety)).toBe(true);
    const wrongStatus = classifyHttpError({
      status: 500,
      body: { error: { status: 'SAFETY' } },
      providerId: 'g',
      rules,
    });
    expect(wrongStatus.reason).toBe('server');
    const capacity = classifyHttpError({ status: 500, body: 'no capacity right now', providerId: 'g', rules });
    expect(isOverloadedError(capacity)).toBe(true);
  });

  it('uses the generic overloaded wording and x-should-retry', () => {
    const overloaded = classifyHttpError({
      status: 529,
      body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      providerId: 'anthropic',
    });
    expect(overloaded.reason).toBe('overloaded');
    const noRetry = classifyHttpError({
      status: 500,
      headers: { 'x-should-retry': 'false' },
      body: 'boom',
      providerId: 'p',
    });
    expect(noRetry.isRetryable).toBe(false);
    const retry = classifyHttpError({
      status: 400,
      headers: { 'x-should-retry': 'true' },
      body: 'odd',
      providerId: 'p',
    });
    expect(retry).toMatchObject({ reason: 'invalid_request', isRetryable: true });
  });

  it('never puts a secret in the message or the url', () => {
    const error = classifyHttpError({
      status: 401,
      body: { error: { message: 'Incorrect API key provided: sk-proj-abcdefghijklmnop. You can find your key at …' } },
      providerId: 'openai',
      url: 'https://generativelanguage.googleapis.com/v1beta/models/x:generateContent?key=AIzaSecret',
      knownSecrets: ['custom-secret-value'],
    });
    expect(isAuthenticationError(error)).toBe(true);
    expect(error.message).not.toContain('sk-proj-abcdefghijklmnop');
    expect(error.message).toContain('[redacted]');
    expect(error.message).toContain('check the API key');
    expect(error.url).not.toContain('AIzaSecret');
  });

  it('handles an empty or HTML body', () => {
    const empty = classifyHttpError({ status: 502, body: '', providerId: 'p' });
    expect(empty.message).toBe('Provider "p" answered HTTP 502: The provider had an internal error: retry later.');
    const html = classifyHttpError({ status: 404, body: '<html>Not Found</html>', providerId: 'p' });
    expect(html).toMatchObject({ reason: 'not_found', body: '<html>Not Found</html>' });
    expect(html.message).toContain('check the model id');
  });
});
