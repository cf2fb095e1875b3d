import { describe, expect, it } from 'vitest';
import { readHeader } from './headers.js';

describe('readHeader', () => {
  it('reads fetch Headers and plain records case-insensitively', () => {
    expect(readHeader(new Headers({ 'Retry-After': '3' }), 'retry-after')).toBe('3');
    expect(readHeader({ 'X-Should-Retry': 'true' }, 'x-should-retry')).toBe('true');
  });

  it('joins repeated values and stringifies numbers', () => {
    expect(readHeader({ via: ['a', 'b'] }, 'Via')).toBe('a, b');
    expect(readHeader({ 'content-length': 12 }, 'content-length')).toBe('12');
  });

  it('returns undefined when absent', () => {
    expect(readHeader(undefined, 'x')).toBeUndefined();
    expect(readHeader(new Headers(), 'x')).toBeUndefined();
    expect(readHeader({ x: undefined }, 'x')).toBeUndefined();
  });
});
