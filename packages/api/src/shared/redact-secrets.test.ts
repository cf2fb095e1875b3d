import { describe, expect, it } from 'vitest';
import { redactSecrets, redactUrl } from './redact-secrets.js';

describe('redactSecrets', () => {
  it('masks common vendor key shapes', () => {
    const text =
      'keys sk-ant-api03-abcdefghijklmnop sk-proj-ABCDEFGH12345678 AIzaSyA1234567890abcdefghijkl xai-abcdefghijklmnopqrstuv AKIAABCDEFGHIJKLMNOP';
    const redacted = redactSecrets(text);
    expect(redacted).toBe('keys [redacted] [redacted] [redacted] [redacted] [redacted]');
  });

  it('masks bearer values and secret query parameters', () => {
    expect(redactSecrets('Authorization: Bearer abc.def-ghi_jkl')).toBe('Authorization: Bearer [redacted]');
    expect(redactSecrets('GET /v1?alt=sse&key=plainsecret&x=1')).toBe('GET /v1?alt=sse&key=[redacted]&x=1');
  });

  it('masks known secrets verbatim whatever their shape', () => {
    expect(redactSecrets('Invalid key: my-odd-key-format', ['my-odd-key-format'])).toBe('Invalid key: [redacted]');
  });

  it('leaves ordinary text alone', () => {
    expect(redactSecrets('prompt is too long: 208310 tokens > 200000 maximum')).toBe(
      'prompt is too long: 208310 tokens > 200000 maximum',
    );
  });
});

describe('redactUrl', () => {
  it('removes user info and secret parameters', () => {
    expect(redactUrl('https://user:pass@example.com/v1/models/x:generate?key=abc123&alt=sse')).toBe(
      'https://example.com/v1/models/x:generate?key=[redacted]&alt=sse',
    );
  });
});
