import { describe, expect, it } from 'vitest';
import { isMissingApiKeyError } from '../spec/llm-error-classes.js';
import { resolveApiKey } from './resolve-api-key.js';

describe('resolveApiKey', () => {
  it('prefers the explicit key, then the first non-blank variable in order', () => {
    const env = { GEMINI_API_KEY: ' ', GOOGLE_API_KEY: 'from-google' };
    expect(resolveApiKey({ providerId: 'gemini', apiKey: 'explicit', envVarNames: ['GEMINI_API_KEY'], env })).toBe(
      'explicit',
    );
    expect(resolveApiKey({ providerId: 'gemini', envVarNames: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], env })).toBe(
      'from-google',
    );
  });

  it('throws a MissingApiKeyError naming every variable checked', () => {
    let thrown: unknown;
    try {
      resolveApiKey({ providerId: 'gemini', apiKey: '', envVarNames: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], env: {} });
    } catch (error) {
      thrown = error;
    }
    expect(isMissingApiKeyError(thrown)).toBe(true);
    if (!isMissingApiKeyError(thrown)) return;
    expect(thrown.envVarNames).toEqual(['GEMINI_API_KEY', 'GOOGLE_API_KEY']);
    expect(thrown.message).toBe(
      'No API key for provider "gemini": pass the `apiKey` option or set one of the environment variables GEMINI_API_KEY, GOOGLE_API_KEY.',
    );
    expect(thrown).toMatchObject({ reason: 'auth', isRetryable: false });
  });
});
