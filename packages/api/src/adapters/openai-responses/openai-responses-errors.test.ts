import { describe, expect, it } from 'vitest';
import { classifyHttpError } from '../../shared/classify-http-error.js';
import { isContextOverflowError, isQuotaExceededError } from '../../spec/llm-error-classes.js';
import {
  classifyOpenAIResponsesStreamError,
  OPENAI_RESPONSES_ERROR_RULES,
  parseTryAgainIn,
} from './openai-responses-errors.js';

function http(status: number, error: Record<string, unknown>) {
  return classifyHttpError({
    status,
    body: JSON.stringify({ error }),
    providerId: 'openai',
    rules: OPENAI_RESPONSES_ERROR_RULES,
  });
}

describe('OPENAI_RESPONSES_ERROR_RULES on HTTP errors', () => {
  it('tells a quota 429 from a rate-limit 429', () => {
    const quota = http(429, {
      type: 'insufficient_quota',
      code: 'insufficient_quota',
      message: 'You exceeded your current quota',
    });
    expect(isQuotaExceededError(quota)).toBe(true);
    expect(quota.isRetryable).toBe(false);
    const limited = http(429, {
      type: 'requests',
      code: 'rate_limit_exceeded',
      message: 'Rate limit reached for gpt-5',
    });
    expect(limited).toMatchObject({ reason: 'rate_limit', isRetryable: true });
  });

  it.each([
    [
      400,
      { code: 'context_length_exceeded', message: 'Your input exceeds the context window of this model.' },
      'context_overflow',
    ],
    [503, { code: 'server_is_overloaded', message: 'The engine is currently overloaded' }, 'overloaded'],
    [
      500,
      { type: 'server_error', code: null, message: 'The server had an error while processing your request.' },
      'server',
    ],
    [401, { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided' }, 'auth'],
    [403, { code: 'unsupported_country_region_territory', message: 'Country not supported' }, 'permission'],
    [404, { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist' }, 'not_found'],
    [
      400,
      { code: 'invalid_prompt', message: 'Invalid prompt: flagged as potentially violating our usage policy' },
      'content_filter',
    ],
    [
      400,
      {
        type: 'invalid_request_error',
        code: 'unsupported_value',
        message: 'Encrypted content is not supported with this model.',
      },
      'invalid_request',
    ],
  ] as const)('HTTP %i %j is %s', (status, error, reason) => {
    expect(http(status, error).reason).toBe(reason);
  });

  it('reads the token counts of a context overflow that states them', () => {
    const error = http(400, {
      code: 'context_length_exceeded',
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
    });
    expect(isContextOverflowError(error)).toBe(true);
    expect(error).toMatchObject({ requestedTokens: 130_000, limitTokens: 128_000 });
  });
});

describe('classifyOpenAIResponsesStreamError', () => {
  const context = { providerId: 'openai', source: 'error event' as const };

  it('classifies in-stream errors with the same table', () => {
    expect(classifyOpenAIResponsesStreamError({ code: 'insufficient_quota', message: 'quota' }, context)).toMatchObject(
      {
        reason: 'quota',
        isRetryable: false,
      },
    );
    expect(classifyOpenAIResponsesStreamError({ code: 'server_error', message: 'oops' }, context).reason).toBe(
      'server',
    );
    expect(classifyOpenAIResponsesStreamError({ code: 'invalid_image', message: 'bad image' }, context).reason).toBe(
      'invalid_request',
    );
  });

  it('takes the wait from rate-limit wording', () => {
    const error = classifyOpenAIResponsesStreamError(
      { code: 'rate_limit_exceeded', message: 'Rate limit reached. Please try again in 1.5s.' },
      context,
    );
    expect(error).toMatchObject({ reason: 'rate_limit', retryAfterMs: 1_500, isRetryable: true });
  });

  it('carries context-overflow counts and names the source', () => {
    const error = classifyOpenAIResponsesStreamError(
      {
        code: 'context_length_exceeded',
        message: 'maximum context length is 8192 tokens. However, you requested 9000 tokens',
      },
      { providerId: 'openai', source: 'failed response' },
    );
    expect(error).toMatchObject({ reason: 'context_overflow', requestedTokens: 9_000, limitTokens: 8_192 });
    expect(error.message).toBe(
      'Provider "openai" reported an error in the stream (failed response): maximum context length is 8192 tokens. However, you requested 9000 tokens (context_length_exceeded).',
    );
  });

  it('treats an unknown or missing code as a retryable server error', () => {
    expect(classifyOpenAIResponsesStreamError({ code: 'brand_new', message: 'hm' }, context)).toMatchObject({
      reason: 'server',
      isRetryable: true,
    });
    expect(classifyOpenAIResponsesStreamError({}, context).message).toContain('no details');
  });
});

describe('parseTryAgainIn', () => {
  it.each([
    ['Please try again in 20s.', 20_000],
    ['Please try again in 1.5s', 1_500],
    ['Please try again in 300ms.', 300],
    ['Please try again in 1m30s.', 90_000],
    ['no hint', undefined],
  ])('%s → %s', (message, expected) => {
    expect(parseTryAgainIn(message)).toBe(expected);
  });
});
