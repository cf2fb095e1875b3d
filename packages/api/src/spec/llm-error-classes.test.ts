import { describe, expect, it } from 'vitest';
import { isLlmError, type LlmError } from './llm-error.js';
import {
  AbortedError,
  AuthenticationError,
  ContentFilterError,
  ContextOverflowError,
  isAbortedError,
  isAuthenticationError,
  isContentFilterError,
  isContextOverflowError,
  isMissingApiKeyError,
  isNetworkError,
  isOverloadedError,
  isQuotaExceededError,
  isRateLimitError,
  isRedirectError,
  isRequestTimeoutError,
  isStreamStallError,
  MissingApiKeyError,
  NetworkError,
  OverloadedError,
  QuotaExceededError,
  RateLimitError,
  RedirectError,
  RequestTimeoutError,
  StreamStallError,
} from './llm-error-classes.js';

const cases: Array<[string, LlmError, (value: unknown) => boolean, string, boolean]> = [
  ['ContextOverflowError', new ContextOverflowError({}), isContextOverflowError, 'context_overflow', false],
  ['RateLimitError', new RateLimitError({}), isRateLimitError, 'rate_limit', true],
  ['OverloadedError', new OverloadedError({}), isOverloadedError, 'overloaded', true],
  ['QuotaExceededError', new QuotaExceededError({}), isQuotaExceededError, 'quota', false],
  ['AuthenticationError', new AuthenticationError({}), isAuthenticationError, 'auth', false],
  [
    'MissingApiKeyError',
    new MissingApiKeyError({ providerId: 'p', envVarNames: ['P_KEY'] }),
    isMissingApiKeyError,
    'auth',
    false,
  ],
  ['ContentFilterError', new ContentFilterError({}), isContentFilterError, 'content_filter', false],
  ['NetworkError', new NetworkError({}), isNetworkError, 'network', true],
  ['RequestTimeoutError', new RequestTimeoutError({}), isRequestTimeoutError, 'timeout', true],
  [
    'StreamStallError',
    new StreamStallError({ stallKind: 'idle', timeoutMs: 5 }),
    isStreamStallError,
    'stream_stall',
    true,
  ],
  ['AbortedError', new AbortedError({}), isAbortedError, 'aborted', false],
  ['RedirectError', new RedirectError({ location: 'https://x.test/' }), isRedirectError, 'invalid_request', false],
];

describe('LlmError subclasses', () => {
  it.each(cases)(
    '%s has its reason, name, retryability and a default message',
    (name, error, guard, reason, retryable) => {
      expect(error.name).toBe(name);
      expect(error.reason).toBe(reason);
      expect(error.isRetryable).toBe(retryable);
      expect(error.message.length).toBeGreaterThan(10);
      expect(isLlmError(error)).toBe(true);
      expect(guard(error)).toBe(true);
    },
  );

  it('guards accept only their own class (and subclasses)', () => {
    for (const [, error, guard] of cases) {
      const accepted = cases.filter(([, other]) => guard(other)).map(([name]) => name);
      const expected = guard === isAuthenticationError ? ['AuthenticationError', 'MissingApiKeyError'] : [error.name];
      expect(accepted).toEqual(expected);
    }
  });

  it('states token counts of a context overflow in the default message', () => {
    const error = new ContextOverflowError({ requestedTokens: 210_000, limitTokens: 200_000, providerId: 'a' });
    expect(error.requestedTokens).toBe(210_000);
    expect(error.limitTokens).toBe(200_000);
    expect(error.message).toContain('210000 tokens requested, 200000 allowed');
  });

  it('names the setting to change in stall messages', () => {
    expect(new StreamStallError({ stallKind: 'first-byte', timeoutMs: 60_000, providerId: 'p' }).message).toContain(
      'firstByteTimeoutMs',
    );
    expect(new StreamStallError({ stallKind: 'idle', timeoutMs: 30_000 }).message).toContain('idleTimeoutMs');
    const keepAliveOnly = new StreamStallError({ stallKind: 'keep-alive-only', timeoutMs: 600_000, providerId: 'p' });
    expect(keepAliveOnly.message).toContain('keepAliveTimeoutMs');
    expect(keepAliveOnly.message).toContain('only keep-alives');
    expect(keepAliveOnly).toMatchObject({ reason: 'stream_stall', isRetryable: true, stallKind: 'keep-alive-only' });
    expect(isStreamStallError(keepAliveOnly)).toBe(true);
  });

  it('lets a caller message replace the default', () => {
    expect(new RateLimitError({ message: 'custom' }).message).toBe('custom');
  });

  it('names a single variable in the missing-key message', () => {
    expect(new MissingApiKeyError({ providerId: 'openai', envVarNames: ['OPENAI_API_KEY'] }).message).toBe(
      'No API key for provider "openai": pass the `apiKey` option or set the environment variable OPENAI_API_KEY.',
    );
  });

  it('guards work across copies of the module', async () => {
    // A query string makes the module loader evaluate a second, independent copy of the module.
    const specifier = './llm-error-classes.js?copy';
    const copy: typeof import('./llm-error-classes.js') = await import(/* @vite-ignore */ specifier);
    const foreign = new copy.ContextOverflowError({ requestedTokens: 2, limitTokens: 1 });
    expect(foreign instanceof ContextOverflowError).toBe(false);
    expect(isContextOverflowError(foreign)).toBe(true);
    expect(isRateLimitError(foreign)).toBe(false);
  });
});
