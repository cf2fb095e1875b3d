import { describe, expect, it } from 'vitest';
import { mapOpenAIResponsesUsage } from './openai-responses-usage.js';

describe('mapOpenAIResponsesUsage', () => {
  it('splits cached and cache-write tokens out of input_tokens and reasoning out of output_tokens', () => {
    expect(
      mapOpenAIResponsesUsage({
        input_tokens: 1200,
        input_tokens_details: { cached_tokens: 1000, cache_write_tokens: 50 },
        output_tokens: 300,
        output_tokens_details: { reasoning_tokens: 120 },
      }),
    ).toEqual({
      input: { total: 1200, noCache: 150, cacheRead: 1000, cacheWrite: 50 },
      output: { total: 300, text: 180, reasoning: 120 },
    });
  });

  it('treats missing details as zero', () => {
    expect(mapOpenAIResponsesUsage({ input_tokens: 7, output_tokens: 3 })).toEqual({
      input: { total: 7, noCache: 7, cacheRead: 0, cacheWrite: 0 },
      output: { total: 3, text: 3, reasoning: 0 },
    });
    expect(mapOpenAIResponsesUsage({ input_tokens_details: null, output_tokens_details: null })).toEqual({
      input: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
      output: { total: 0, text: 0, reasoning: 0 },
    });
  });

  it('is all zeros without usage', () => {
    expect(mapOpenAIResponsesUsage(null).input.total).toBe(0);
    expect(mapOpenAIResponsesUsage(undefined).output.total).toBe(0);
  });
});
