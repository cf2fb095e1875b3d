import { describe, expect, it } from 'vitest';
import { mapUsage, sameUsage } from './openai-chat-usage.js';

describe('mapUsage', () => {
  it('splits cached tokens out of prompt_tokens instead of adding them (OpenAI)', () => {
    expect(
      mapUsage({
        prompt_tokens: 1200,
        completion_tokens: 300,
        total_tokens: 1500,
        prompt_tokens_details: { cached_tokens: 1000 },
        completion_tokens_details: { reasoning_tokens: 120 },
      }),
    ).toEqual({
      input: { total: 1200, noCache: 200, cacheRead: 1000, cacheWrite: 0 },
      output: { total: 300, text: 180, reasoning: 120 },
    });
  });

  it("reads DeepSeek's cache hit/miss counts", () => {
    expect(
      mapUsage({
        prompt_tokens: 339,
        completion_tokens: 83,
        prompt_cache_hit_tokens: 320,
        prompt_cache_miss_tokens: 19,
      }),
    ).toEqual({
      input: { total: 339, noCache: 19, cacheRead: 320, cacheWrite: 0 },
      output: { total: 83, text: 83, reasoning: 0 },
    });
    expect(
      mapUsage({ prompt_cache_hit_tokens: 30, prompt_cache_miss_tokens: 10, completion_tokens: 5 })?.input,
    ).toEqual({ total: 40, noCache: 10, cacheRead: 30, cacheWrite: 0 });
  });

  it('counts cache writes reported in prompt_tokens_details (OpenRouter)', () => {
    expect(
      mapUsage({
        prompt_tokens: 100,
        completion_tokens: 1,
        prompt_tokens_details: { cached_tokens: 20, cache_write_tokens: 50 },
      })?.input,
    ).toEqual({ total: 100, noCache: 30, cacheRead: 20, cacheWrite: 50 });
  });

  it("adds xAI's reasoning tokens, which completion_tokens leaves out (total_tokens shows it)", () => {
    expect(
      mapUsage({
        prompt_tokens: 12,
        completion_tokens: 1,
        total_tokens: 303,
        prompt_tokens_details: { cached_tokens: 11 },
        completion_tokens_details: { reasoning_tokens: 290 },
      }),
    ).toEqual({
      input: { total: 12, noCache: 1, cacheRead: 11, cacheWrite: 0 },
      output: { total: 291, text: 1, reasoning: 290 },
    });
  });

  it('keeps reasoning inside completion_tokens when total_tokens says so (Moonshot, Groq)', () => {
    expect(
      mapUsage({
        prompt_tokens: 9,
        completion_tokens: 12,
        total_tokens: 21,
        completion_tokens_details: { reasoning_tokens: 7 },
      })?.output,
    ).toEqual({ total: 12, text: 5, reasoning: 7 });
  });

  it('is undefined when nothing was counted', () => {
    expect(mapUsage(undefined)).toBeUndefined();
    expect(mapUsage(null)).toBeUndefined();
    expect(mapUsage({ total_tokens: 3 })).toBeUndefined();
  });

  it('compares usages by their numbers', () => {
    const first = mapUsage({ prompt_tokens: 10, completion_tokens: 2 });
    expect(sameUsage(first, mapUsage({ prompt_tokens: 10, completion_tokens: 2 }))).toBe(true);
    expect(sameUsage(first, mapUsage({ prompt_tokens: 10, completion_tokens: 3 }))).toBe(false);
    expect(sameUsage(undefined, first)).toBe(false);
  });
});
