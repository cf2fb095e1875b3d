import { describe, expect, it } from 'vitest';
import { parseDuration, parseRetryAfterHeaders, parseRetryInfoDelay } from './retry-after.js';

describe('parseRetryAfterHeaders', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('prefers retry-after-ms over retry-after', () => {
    expect(parseRetryAfterHeaders(new Headers({ 'retry-after-ms': '1500.2', 'retry-after': '9' }), now)).toBe(1501);
  });

  it('reads retry-after in seconds, whole or fractional', () => {
    expect(parseRetryAfterHeaders(new Headers({ 'retry-after': '7' }), now)).toBe(7_000);
    expect(parseRetryAfterHeaders({ 'Retry-After': '0.5' }, now)).toBe(500);
  });

  it('reads retry-after as an HTTP date relative to now, and clamps past dates to 0', () => {
    expect(parseRetryAfterHeaders({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }, now)).toBe(30_000);
    expect(parseRetryAfterHeaders({ 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }, now)).toBe(0);
  });

  it('ignores missing and invalid values', () => {
    expect(parseRetryAfterHeaders(undefined, now)).toBeUndefined();
    expect(parseRetryAfterHeaders({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfterHeaders({ 'retry-after-ms': '-5', 'retry-after': '2' }, now)).toBe(2_000);
  });
});

describe('parseRetryInfoDelay', () => {
  const body = {
    error: {
      code: 429,
      status: 'RESOURCE_EXHAUSTED',
      details: [
        { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' },
      ],
    },
  };

  it('reads Gemini RetryInfo from parsed JSON, text and the array form', () => {
    expect(parseRetryInfoDelay(body)).toBe(34_400);
    expect(parseRetryInfoDelay(JSON.stringify(body))).toBe(34_400);
    expect(parseRetryInfoDelay([body])).toBe(34_400);
  });

  it('returns undefined without RetryInfo', () => {
    expect(parseRetryInfoDelay({ error: { message: 'x' } })).toBeUndefined();
    expect(parseRetryInfoDelay('not json')).toBeUndefined();
  });
});

describe('parseDuration', () => {
  it('parses protobuf durations', () => {
    expect(parseDuration('2s')).toBe(2_000);
    expect(parseDuration('0.001s')).toBe(1);
    expect(parseDuration('5m')).toBeUndefined();
  });
});
