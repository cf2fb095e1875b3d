import { describe, expect, it } from 'vitest';
import { mapCohereUsage } from './cohere-usage.js';

describe('mapCohereUsage', () => {
  it('counts tokens, with the cache hits as part of the input', () => {
    expect(
      mapCohereUsage({
        billed_units: { input_tokens: 12, output_tokens: 7 },
        tokens: { input_tokens: 507, output_tokens: 10 },
        cached_tokens: 448,
      }),
    ).toEqual({
      input: { total: 507, noCache: 59, cacheRead: 448, cacheWrite: 0 },
      output: { total: 10, text: 10, reasoning: 0 },
    });
  });

  it('falls back to billed units plus the cache hits when tokens are missing', () => {
    expect(mapCohereUsage({ billed_units: { input_tokens: 12, output_tokens: 7 }, cached_tokens: 100 })).toEqual({
      input: { total: 112, noCache: 12, cacheRead: 100, cacheWrite: 0 },
      output: { total: 7, text: 7, reasoning: 0 },
    });
  });

  it('never counts more cache hits than input, and is zero when missing', () => {
    expect(mapCohereUsage({ tokens: { input_tokens: 5, output_tokens: 1 }, cached_tokens: 9 }).input).toEqual({
      total: 5,
      noCache: 0,
      cacheRead: 5,
      cacheWrite: 0,
    });
    expect(mapCohereUsage(undefined)).toEqual({
      input: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
      output: { total: 0, text: 0, reasoning: 0 },
    });
  });
});
