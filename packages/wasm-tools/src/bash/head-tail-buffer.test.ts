import { describe, expect, it } from 'vitest';
import { capText, HeadTailBuffer } from './head-tail-buffer.js';

describe('HeadTailBuffer', () => {
  it('keeps everything that fits', () => {
    const buffer = new HeadTailBuffer(100);
    buffer.write('hello ');
    buffer.write(Buffer.from('world'));
    expect(buffer.toString()).toBe('hello world');
    expect(buffer.truncated).toBe(false);
    expect(buffer.totalBytes).toBe(11);
  });

  it('keeps the head and the tail of a long stream with a marker counting the rest', () => {
    const buffer = new HeadTailBuffer(20);
    for (let index = 0; index < 1000; index += 1) buffer.write(`${index % 10}`);
    const text = buffer.toString();
    expect(text.startsWith('0123456789')).toBe(true);
    expect(text.endsWith('0123456789')).toBe(true);
    expect(text).toContain('[... 980 bytes of output omitted ...]');
    expect(buffer.truncated).toBe(true);
    expect(buffer.totalBytes).toBe(1000);
  });

  it('keeps the true tail when one chunk is larger than the budget', () => {
    const buffer = new HeadTailBuffer(10);
    buffer.write('abc');
    buffer.write(`${'x'.repeat(50)}END`);
    const text = buffer.toString();
    expect(text.startsWith('abcxx')).toBe(true);
    expect(text.endsWith('xxEND')).toBe(true);
    expect(text).toContain('46 bytes of output omitted');
  });
});

describe('capText', () => {
  it('reports truncation and the original size', () => {
    const capped = capText('a'.repeat(5000), 100);
    expect(capped.truncated).toBe(true);
    expect(capped.totalBytes).toBe(5000);
    expect(capped.text.length).toBeLessThan(200);
    expect(capText('short', 100)).toEqual({ text: 'short', truncated: false, totalBytes: 5 });
  });
});
