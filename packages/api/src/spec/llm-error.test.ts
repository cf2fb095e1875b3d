import { describe, expect, it } from 'vitest';
import { isLlmError, isRetryableReason, LLM_ERROR_REASONS, LlmError } from './llm-error.js';

describe('LlmError', () => {
  it('carries its context and defaults retryability from the reason', () => {
    const cause = new Error('socket');
    const error = new LlmError({
      reason: 'server',
      message: 'Provider "p" answered HTTP 500.',
      status: 500,
      providerId: 'p',
      body: { error: 'x' },
      url: 'https://p.test/v1',
      retryAfterMs: 10,
      cause,
    });
    expect(error).toMatchObject({
      name: 'LlmError',
      reason: 'server',
      isRetryable: true,
      status: 500,
      providerId: 'p',
      body: { error: 'x' },
      url: 'https://p.test/v1',
      retryAfterMs: 10,
    });
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(Error);
  });

  it('lets an explicit isRetryable override the reason', () => {
    expect(new LlmError({ reason: 'server', message: 'x', isRetryable: false }).isRetryable).toBe(false);
  });

  it('serialises to a summary without the body', () => {
    const json = JSON.parse(JSON.stringify(new LlmError({ reason: 'quota', message: 'm', status: 402, body: 'big' })));
    expect(json).toEqual({ name: 'LlmError', reason: 'quota', message: 'm', isRetryable: false, status: 402 });
  });
});

describe('isRetryableReason', () => {
  it('retries exactly the transient reasons', () => {
    const retryable = LLM_ERROR_REASONS.filter((reason) => isRetryableReason(reason));
    expect(retryable).toEqual(['rate_limit', 'overloaded', 'server', 'network', 'timeout', 'stream_stall']);
    expect(LLM_ERROR_REASONS).toHaveLength(15);
  });
});

describe('isLlmError', () => {
  it('recognises errors from another copy of the module, where instanceof fails', async () => {
    // A query string makes the module loader evaluate a second, independent copy of the module.
    const specifier = './llm-error.js?copy';
    const copy: typeof import('./llm-error.js') = await import(/* @vite-ignore */ specifier);
    const foreign = new copy.LlmError({ reason: 'auth', message: 'x' });
    expect(copy.LlmError).not.toBe(LlmError);
    expect(foreign instanceof LlmError).toBe(false);
    expect(isLlmError(foreign)).toBe(true);
  });

  it('rejects look-alikes', () => {
    expect(isLlmError(new Error('x'))).toBe(false);
    expect(isLlmError({ reason: 'auth', message: 'x' })).toBe(false);
    expect(isLlmError(null)).toBe(false);
    expect(isLlmError('error')).toBe(false);
  });
});
