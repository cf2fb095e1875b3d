import { describe, expect, it } from 'vitest';
import { addUsage, createUsage } from './usage.js';

describe('createUsage', () => {
  it('derives noCache and text from totals (OpenAI-style reports)', () => {
    expect(createUsage({ inputTotal: 1200, cacheRead: 1000, outputTotal: 300, reasoning: 120 })).toEqual({
      input: { total: 1200, noCache: 200, cacheRead: 1000, cacheWrite: 0 },
      output: { total: 300, text: 180, reasoning: 120 },
    });
  });

  it('derives totals from parts (Anthropic-style reports)', () => {
    expect(createUsage({ inputNoCache: 10, cacheRead: 500, cacheWrite: 90, outputText: 40 })).toEqual({
      input: { total: 600, noCache: 10, cacheRead: 500, cacheWrite: 90 },
      output: { total: 40, text: 40, reasoning: 0 },
    });
  });

  it('is all zeros when nothing is known, and never negative', () => {
    expect(createUsage()).toEqual({
      input: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
      output: { total: 0, text: 0, reasoning: 0 },
    });
    expect(createUsage({ inputTotal: 5, cacheRead: 9 }).input.noCache).toBe(0);
  });
});

describe('addUsage', () => {
  it('adds every field', () => {
    const sum = addUsage(
      createUsage({ inputNoCache: 1, cacheRead: 2, outputText: 3 }),
      createUsage({ inputTotal: 10, reasoning: 4 }),
    );
    expect(sum).toEqual({
      input: { total: 13, noCache: 11, cacheRead: 2, cacheWrite: 0 },
      output: { total: 7, text: 3, reasoning: 4 },
    });
  });
});
