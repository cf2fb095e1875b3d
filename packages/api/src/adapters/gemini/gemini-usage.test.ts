import { describe, expect, it } from 'vitest';
import { hasTokenCounts, mapGeminiUsage } from './gemini-usage.js';

describe('mapGeminiUsage', () => {
  it('counts cached tokens once (they are part of promptTokenCount) and thoughts as output', () => {
    expect(
      mapGeminiUsage({
        promptTokenCount: 1200,
        cachedContentTokenCount: 1000,
        candidatesTokenCount: 30,
        thoughtsTokenCount: 70,
      }),
    ).toEqual({
      input: { total: 1200, noCache: 200, cacheRead: 1000, cacheWrite: 0 },
      output: { total: 100, text: 30, reasoning: 70 },
    });
  });

  it('adds tool-use prompt tokens to the input', () => {
    expect(mapGeminiUsage({ promptTokenCount: 10, toolUsePromptTokenCount: 5, candidatesTokenCount: 1 }).input).toEqual(
      {
        total: 15,
        noCache: 15,
        cacheRead: 0,
        cacheWrite: 0,
      },
    );
  });

  it('is all zeros without metadata', () => {
    expect(mapGeminiUsage(undefined)).toEqual({
      input: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
      output: { total: 0, text: 0, reasoning: 0 },
    });
  });
});

describe('hasTokenCounts', () => {
  it('tells counts from Vertex trafficType-only metadata', () => {
    expect(hasTokenCounts({ trafficType: 'PROVISIONED_THROUGHPUT' } as never)).toBe(false);
    expect(hasTokenCounts({ promptTokenCount: 3 })).toBe(true);
    expect(hasTokenCounts(undefined)).toBe(false);
  });
});
