import { describe, expect, it } from 'vitest';
import { classifyHttpError } from '../../shared/classify-http-error.js';
import type { LlmErrorReason } from '../../spec/llm-error.js';
import { isContextOverflowError } from '../../spec/llm-error-classes.js';
import { COHERE_ERROR_RULES, cohereStreamError, withCohereTokenCounts } from './cohere-errors.js';

function classify(status: number, message: string) {
  return withCohereTokenCounts(
    classifyHttpError({ status, body: { message }, providerId: 'cohere', rules: COHERE_ERROR_RULES }),
  );
}

describe('COHERE_ERROR_RULES', () => {
  it.each([
    [400, 'too many tokens: size limit exceeded by 11326 tokens.', 'context_overflow'],
    [
      400,
      'invalid request: message must be at least 1 token long or tool results must be specified.',
      'invalid_request',
    ],
    [429, 'You are using a Trial key, which is limited to 10 API calls / minute.', 'rate_limit'],
    [429, 'You are past the per minute request limit, please wait and try again later.', 'rate_limit'],
    [
      402,
      'Please add or update your payment method at https://dashboard.cohere.com/billing?tab=payment to continue',
      'quota',
    ],
    [401, 'invalid api token', 'auth'],
    [498, 'invalid token', 'auth'],
    [499, 'request cancelled', 'server'],
    [503, 'service unavailable, please try again later', 'overloaded'],
    [404, "model 'x' not found", 'not_found'],
    [500, 'internal server error', 'server'],
  ] as Array<[number, string, LlmErrorReason]>)('%i "%s" is %s', (status, message, reason) => {
    expect(classify(status, message).reason).toBe(reason);
  });

  it('499 is retried', () => {
    expect(classify(499, 'request cancelled').isRetryable).toBe(true);
  });

  it('parses the counts of the prompt-limit wording, and keeps the rest of the error', () => {
    const error = classify(
      400,
      'too many tokens: total number of tokens in the prompt cannot exceed 4081 - received 4292. Try using a shorter prompt.',
    );
    expect(isContextOverflowError(error) && [error.requestedTokens, error.limitTokens]).toEqual([4292, 4081]);
    expect(error.status).toBe(400);
    expect(error.providerId).toBe('cohere');
    const noCounts = classify(400, 'too many tokens: size limit exceeded by 11326 tokens.');
    expect(isContextOverflowError(noCounts) && noCounts.requestedTokens).toBeUndefined();
  });
});

describe('cohereStreamError', () => {
  it('classifies the error text of an ERROR finish, a retryable server error by default', () => {
    expect(cohereStreamError('service unavailable, please try again later', 'cohere')).toMatchObject({
      reason: 'overloaded',
      isRetryable: true,
      message: expect.stringContaining('reported an error in the stream'),
    });
    expect(cohereStreamError('something odd happened', 'cohere')).toMatchObject({
      reason: 'server',
      isRetryable: true,
    });
    const overflow = cohereStreamError(
      'too many tokens: total number of tokens in the prompt cannot exceed 100 - received 120.',
      'cohere',
    );
    expect(isContextOverflowError(overflow) && [overflow.requestedTokens, overflow.limitTokens]).toEqual([120, 100]);
    expect(overflow.status).toBeUndefined();
  });
});
