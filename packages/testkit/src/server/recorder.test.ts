import { describe, expect, it } from 'vitest';
import { maskHeaders, maskQuery, maskSecret } from './recorder.js';

describe('secret masking', () => {
  it('keeps the scheme and the last four characters of long keys only', () => {
    expect(maskSecret('Bearer sk-ant-abcdefghijklmnop')).toBe('Bearer ***mnop');
    expect(maskSecret('short')).toBe('***');
    expect(maskSecret('AIzaSyA-0123456789abcdef')).toBe('***cdef');
  });

  it('masks the signature of a SigV4 header but keeps its scope', () => {
    const value =
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=0123abcd';
    const masked = maskSecret(value);
    expect(masked).toContain('Credential=AKIDEXAMPLE/20260101/us-east-1/bedrock/aws4_request');
    expect(masked).not.toContain('0123abcd');
  });

  it('masks credential headers and query parameters and leaves the rest', () => {
    const headers = maskHeaders({
      'x-api-key': 'sk-ant-api03-secretsecret',
      'api-key': 'azure-key-0123456789',
      'content-type': 'application/json',
    });
    expect(headers['x-api-key']).toBe('***cret');
    expect(headers['api-key']).toBe('***6789');
    expect(headers['content-type']).toBe('application/json');
    expect(maskQuery(new URLSearchParams('alt=sse&key=AIzaSyA-0123456789abcdef'))).toEqual({
      alt: 'sse',
      key: '***cdef',
    });
  });
});
