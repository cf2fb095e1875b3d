import { describe, expect, it } from 'vitest';
import { classifyHttpError } from '../../shared/classify-http-error.js';
import { classifyStreamError, OPENAI_CHAT_ERROR_RULES, withOverflowTokenCounts } from './openai-chat-errors.js';

function classify(status: number, body: unknown) {
  return withOverflowTokenCounts(classifyHttpError({ status, body, providerId: 'p', rules: OPENAI_CHAT_ERROR_RULES }));
}

describe('OPENAI_CHAT_ERROR_RULES', () => {
  it.each([
    [
      400,
      {
        error: {
          message:
            "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
          code: 'context_length_exceeded',
        },
      },
      'context_overflow',
    ],
    [400, { error: { message: 'Prompt 超长', code: '1261' } }, 'context_overflow'],
    [
      400,
      { error: { message: 'Range of input length should be [1, 30720]', code: 'InvalidParameter' } },
      'context_overflow',
    ],
    [
      429,
      {
        error: {
          message: 'You exceeded your current quota, please check your plan and billing details.',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
        },
      },
      'quota',
    ],
    [402, { error: { message: 'Insufficient Balance', type: 'unknown_error' } }, 'quota'],
    [429, { error: { message: '您的账户已欠费，请充值后重试', code: '1113' } }, 'quota'],
    [429, { error: { message: 'Your account org-x is suspended', type: 'exceeded_current_quota_error' } }, 'quota'],
    [
      429,
      { error: { message: 'Rate limit reached for gpt-4o on requests per min (RPM)', code: 'rate_limit_exceeded' } },
      'rate_limit',
    ],
    [429, { error: { message: '您当前使用该 API 的并发数过高，请降低并发', code: '1302' } }, 'rate_limit'],
    [
      429,
      {
        error: {
          message: 'The engine is currently overloaded, please try again later',
          type: 'engine_overloaded_error',
        },
      },
      'overloaded',
    ],
    [503, { error: { message: 'Server Overloaded' } }, 'overloaded'],
    [429, { error: { message: '该模型当前访问量过大，请您稍后再试', code: '1305' } }, 'overloaded'],
    [
      400,
      {
        error: {
          message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
          code: 'content_filter',
          innererror: { code: 'ResponsibleAIPolicyViolation' },
        },
      },
      'content_filter',
    ],
    [
      400,
      { error: { message: 'Input data may contain inappropriate content.', code: 'data_inspection_failed' } },
      'content_filter',
    ],
    [
      400,
      {
        error: {
          message: 'Invalid prompt: your prompt was flagged as potentially violating our usage policy.',
          code: 'invalid_prompt',
        },
      },
      'content_filter',
    ],
    [401, { error: { message: 'Incorrect API key provided: sk-abc***wxyz.', code: 'invalid_api_key' } }, 'auth'],
    [
      404,
      {
        error: {
          message: 'The model `gpt-9` does not exist or you do not have access to it.',
          code: 'model_not_found',
        },
      },
      'not_found',
    ],
  ] as const)('HTTP %i %j is %s', (status, body, reason) => {
    expect(classify(status, body).reason).toBe(reason);
  });

  it('marks quota and over-the-minute-limit requests as not retryable', () => {
    expect(classify(429, { error: { code: 'insufficient_quota', message: 'quota' } }).isRetryable).toBe(false);
    const tooLarge = classify(429, {
      error: {
        message:
          'Request too large for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Requested 45000.',
        code: 'rate_limit_exceeded',
      },
    });
    expect(tooLarge).toMatchObject({ reason: 'rate_limit', isRetryable: false });
    expect(classify(429, { error: { code: 'rate_limit_exceeded', message: 'Rate limit reached' } }).isRetryable).toBe(
      true,
    );
  });
});

describe('withOverflowTokenCounts', () => {
  it("adds Moonshot's counts", () => {
    const error = classify(400, {
      error: {
        message: 'Invalid request: Your request exceeded model token limit: 262144 (requested: 269030)',
        type: 'invalid_request_error',
      },
    });
    expect(error).toMatchObject({
      reason: 'context_overflow',
      requestedTokens: 269_030,
      limitTokens: 262_144,
      status: 400,
    });
  });

  it('leaves errors that already have counts, or are not overflows, unchanged', () => {
    const overflow = classify(400, {
      error: {
        message: "This model's maximum context length is 10 tokens. However, your messages resulted in 20 tokens.",
      },
    });
    expect(withOverflowTokenCounts(overflow)).toBe(overflow);
    const other = classify(500, { error: { message: 'boom' } });
    expect(withOverflowTokenCounts(other)).toBe(other);
  });
});

describe('classifyStreamError', () => {
  it('classifies by wording, with no status unless the code is an HTTP status', () => {
    const error = classifyStreamError(
      { message: 'The engine is currently overloaded', code: 'server_is_overloaded' },
      { providerId: 'p' },
    );
    expect(error).toMatchObject({ reason: 'overloaded', status: undefined, isRetryable: true, providerId: 'p' });
    expect(error.message).toBe(
      'Provider "p" reported an error in the middle of the stream: The engine is currently overloaded.',
    );
    expect(classifyStreamError({ message: 'Upstream failed', code: 502 }, { providerId: 'p' })).toMatchObject({
      reason: 'server',
      status: 502,
    });
  });

  it('treats an unrecognised error without a status as a retryable server error', () => {
    expect(classifyStreamError('something broke', { providerId: 'p' })).toMatchObject({
      reason: 'server',
      isRetryable: true,
    });
  });

  it('carries context-overflow counts and quota retryability', () => {
    expect(
      classifyStreamError(
        { message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens" },
        { providerId: 'p' },
      ),
    ).toMatchObject({ reason: 'context_overflow', requestedTokens: 5000, limitTokens: 4096 });
    expect(classifyStreamError({ message: 'x', code: 'insufficient_quota' }, { providerId: 'p' })).toMatchObject({
      reason: 'quota',
      isRetryable: false,
    });
  });
});
