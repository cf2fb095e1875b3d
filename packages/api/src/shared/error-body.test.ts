import { describe, expect, it } from 'vitest';
import { extractErrorDetails } from './error-body.js';

describe('extractErrorDetails', () => {
  it('reads the Anthropic shape', () => {
    const body = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    expect(extractErrorDetails(body)).toEqual({
      message: 'Overloaded',
      type: 'overloaded_error',
      code: undefined,
      status: undefined,
    });
  });

  it('reads the OpenAI shape from text', () => {
    const body = JSON.stringify({
      error: { message: 'Bad', type: 'invalid_request_error', code: 'context_length_exceeded' },
    });
    expect(extractErrorDetails(body)).toMatchObject({
      message: 'Bad',
      type: 'invalid_request_error',
      code: 'context_length_exceeded',
    });
  });

  it('reads the Gemini array shape with a numeric code', () => {
    const body = [{ error: { code: 429, message: 'Quota', status: 'RESOURCE_EXHAUSTED' } }];
    expect(extractErrorDetails(body)).toEqual({
      message: 'Quota',
      type: undefined,
      code: '429',
      status: 'RESOURCE_EXHAUSTED',
    });
  });

  it('reads Ollama, Bedrock, FastAPI and errors-array shapes', () => {
    expect(extractErrorDetails({ error: 'model "x" not found' }).message).toBe('model "x" not found');
    expect(extractErrorDetails({ Message: 'Too many tokens' }).message).toBe('Too many tokens');
    expect(extractErrorDetails({ detail: 'Not authenticated' }).message).toBe('Not authenticated');
    expect(extractErrorDetails({ errors: [{ message: 'first' }] }).message).toBe('first');
  });

  it('uses non-JSON text as the message', () => {
    expect(extractErrorDetails('  <html>Bad gateway</html> ').message).toBe('<html>Bad gateway</html>');
    expect(extractErrorDetails('').message).toBeUndefined();
  });
});
