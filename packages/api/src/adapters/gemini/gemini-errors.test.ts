import { describe, expect, it } from 'vitest';
import { classifyHttpError } from '../../shared/classify-http-error.js';
import { GEMINI_ERROR_RULES, geminiStreamError, refineGeminiError } from './gemini-errors.js';

function classify(status: number, error: Record<string, unknown>) {
  return refineGeminiError(
    classifyHttpError({ status, body: JSON.stringify({ error }), providerId: 'gemini', rules: GEMINI_ERROR_RULES }),
  );
}

const quotaFailure = (quotaId: string) => ({
  '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
  violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaId }],
});

describe('Gemini error wording', () => {
  it('a bad key is auth although Gemini answers 400', () => {
    const error = classify(400, {
      code: 400,
      message: 'API key not valid. Please pass a valid API key.',
      status: 'INVALID_ARGUMENT',
    });
    expect(error.reason).toBe('auth');
    expect(error.isRetryable).toBe(false);
  });

  it('no key at all (403 unregistered callers) is auth', () => {
    expect(
      classify(403, { code: 403, message: "Method doesn't allow unregistered callers", status: 'PERMISSION_DENIED' })
        .reason,
    ).toBe('auth');
  });

  it('a context overflow carries both token counts', () => {
    const error = classify(400, {
      code: 400,
      message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
      status: 'INVALID_ARGUMENT',
    });
    expect(error).toMatchObject({ reason: 'context_overflow', requestedTokens: 1_200_000, limitTokens: 1_048_576 });
  });

  it('an unsupported location is permission', () => {
    expect(
      classify(400, {
        code: 400,
        message: 'User location is not supported for the API use.',
        status: 'FAILED_PRECONDITION',
      }).reason,
    ).toBe('permission');
  });

  it('503 overloaded is retryable overloaded', () => {
    const error = classify(503, {
      code: 503,
      message: 'The model is overloaded. Please try again later.',
      status: 'UNAVAILABLE',
    });
    expect(error).toMatchObject({ reason: 'overloaded', isRetryable: true });
  });

  it('a per-minute QuotaFailure stays a retryable rate limit with its RetryInfo delay', () => {
    const error = classify(429, {
      code: 429,
      message: 'You exceeded your current quota.',
      status: 'RESOURCE_EXHAUSTED',
      details: [
        quotaFailure('GenerateRequestsPerMinutePerProjectPerModel-FreeTier'),
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' },
      ],
    });
    expect(error).toMatchObject({ reason: 'rate_limit', isRetryable: true, retryAfterMs: 34_400 });
  });

  it('a per-day QuotaFailure becomes a quota error that is not retried', () => {
    const error = classify(429, {
      code: 429,
      message: 'You exceeded your current quota.',
      status: 'RESOURCE_EXHAUSTED',
      details: [quotaFailure('GenerateRequestsPerDayPerProjectPerModel-FreeTier')],
    });
    expect(error).toMatchObject({ reason: 'quota', isRetryable: false, status: 429 });
    expect(error.message).toContain('GenerateRequestsPerDayPerProjectPerModel-FreeTier');
    expect(error.message).not.toContain('Rate limited');
  });

  it('a free tier without any quota for the model ("limit: 0") is quota', () => {
    const error = classify(429, {
      code: 429,
      message:
        'Quota exceeded for metric: generate_content_free_tier_input_token_count, limit: 0, model: gemini-2.5-pro',
      status: 'RESOURCE_EXHAUSTED',
    });
    expect(error.reason).toBe('quota');
  });

  it('an in-stream error object is classified by its code', () => {
    expect(
      geminiStreamError(
        { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' },
        { providerId: 'gemini' },
      ),
    ).toMatchObject({
      reason: 'overloaded',
      status: 503,
    });
    expect(geminiStreamError({ message: 'Something broke' }, { providerId: 'gemini' })).toMatchObject({
      reason: 'server',
      status: 500,
    });
  });

  it('masks the key in messages', () => {
    const error = geminiStreamError(
      { code: 400, message: 'API key not valid: AIzaSyTESTKEY1234567890', status: 'INVALID_ARGUMENT' },
      { providerId: 'gemini', knownSecrets: ['AIzaSyTESTKEY1234567890'] },
    );
    expect(error.message).not.toContain('AIzaSyTESTKEY1234567890');
  });
});
