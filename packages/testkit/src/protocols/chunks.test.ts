import { describe, expect, it } from 'vitest';
import { estimateTokens, splitText } from './chunks.js';

describe('splitText', () => {
  it('cuts text into pieces of the given size and loses nothing', () => {
    expect(splitText('abcdefg', 3)).toEqual(['abc', 'def', 'g']);
    expect(splitText('', 3)).toEqual([]);
  });

  it('never splits a surrogate pair', () => {
    const pieces = splitText('a😀b😀', 2);
    expect(pieces.join('')).toBe('a😀b😀');
    for (const piece of pieces) expect(piece).toBe(Buffer.from(piece, 'utf8').toString('utf8'));
    expect(pieces[0]).toBe('a\ud83d\ude00');
  });

  it('treats sizes below one as one', () => {
    expect(splitText('ab', 0)).toEqual(['a', 'b']);
  });
});

describe('estimateTokens', () => {
  it('is at least one and grows with length', () => {
    expect(estimateTokens('')).toBe(1);
    expect(estimateTokens('x'.repeat(40))).toBe(10);
  });
});
