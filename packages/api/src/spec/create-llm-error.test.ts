import { describe, expect, it } from 'vitest';
import { createLlmError } from './create-llm-error.js';
import { LLM_ERROR_REASONS, type LlmErrorReason } from './llm-error.js';
import {
  isAbortedError,
  isAuthenticationError,
  isContentFilterError,
  isContextOverflowError,
  isNetworkError,
  isOverloadedError,
  isQuotaExceededError,
  isRateLimitError,
  isRequestTimeoutError,
  isStreamStallError,
} from './llm-error-classes.js';

const guards: Partial<Record<LlmErrorReason, (value: unknown) => boolean>> = {
  context_overflow: isContextOverflowError,
  rate_limit: isRateLimitError,
  overloaded: isOverloadedError,
  quota: isQuotaExceededError,
  auth: isAuthenticationError,
  content_filter: isContentFilterError,
  network: isNetworkError,
  timeout: isRequestTimeoutError,
  stream_stall: isStreamStallError,
  aborted: isAbortedError,
};

describe('createLlmError', () => {
  it.each(LLM_ERROR_REASONS)('builds the most specific class for %s, keeping message and context', (reason) => {
    const error = createLlmError({ reason, message: `m-${reason}`, status: 499, providerId: 'p' });
    expect(error).toMatchObject({ reason, message: `m-${reason}`, status: 499, providerId: 'p' });
    const guard = guards[reason];
    if (guard !== undefined) expect(guard(error)).toBe(true);
    else expect(error.name).toBe('LlmError');
  });

  it('passes subclass fields through', () => {
    expect(
      createLlmError({ reason: 'context_overflow', message: 'x', requestedTokens: 3, limitTokens: 2 }),
    ).toMatchObject({
      requestedTokens: 3,
      limitTokens: 2,
    });
    expect(
      createLlmError({ reason: 'stream_stall', message: 'x', stallKind: 'first-byte', timeoutMs: 9 }),
    ).toMatchObject({
      stallKind: 'first-byte',
      timeoutMs: 9,
    });
    const keepAliveOnly = createLlmError({
      reason: 'stream_stall',
      message: 'x',
      stallKind: 'keep-alive-only',
      timeoutMs: 600_000,
    });
    expect(isStreamStallError(keepAliveOnly)).toBe(true);
    expect(keepAliveOnly).toMatchObject({ stallKind: 'keep-alive-only', timeoutMs: 600_000, isRetryable: true });
  });
});
