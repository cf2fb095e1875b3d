import { describe, expect, it } from 'vitest';
import { mapAnthropicUsage, mergeAnthropicUsage } from './anthropic-usage.js';

describe('mapAnthropicUsage', () => {
  it('adds cached tokens to input_tokens for the total, once each', () => {
    const usage = mapAnthropicUsage({
      input_tokens: 6,
      cache_creation_input_tokens: 3337,
      cache_read_input_tokens: 6289,
      output_tokens: 198,
      output_tokens_details: { thinking_tokens: 0 },
    });
    expect(usage).toEqual({
      input: { total: 9632, noCache: 6, cacheRead: 6289, cacheWrite: 3337 },
      output: { total: 198, text: 198, reasoning: 0 },
    });
  });

  it('splits reasoning out of the output when thinking_tokens is reported', () => {
    const usage = mapAnthropicUsage({
      input_tokens: 10,
      output_tokens: 50,
      output_tokens_details: { thinking_tokens: 20 },
    });
    expect(usage.output).toEqual({ total: 50, text: 30, reasoning: 20 });
  });

  it('treats missing and null counts as 0', () => {
    expect(mapAnthropicUsage(undefined)).toEqual({
      input: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
      output: { total: 0, text: 0, reasoning: 0 },
    });
    expect(mapAnthropicUsage({ input_tokens: 5, cache_read_input_tokens: null }).input).toEqual({
      total: 5,
      noCache: 5,
      cacheRead: 0,
      cacheWrite: 0,
    });
  });
});

describe('mergeAnthropicUsage', () => {
  it('lets reported fields of the later usage win and keeps the rest', () => {
    const start = { input_tokens: 2, cache_creation_input_tokens: 3068, cache_read_input_tokens: 0, output_tokens: 69 };
    const delta = { output_tokens: 198 };
    expect(mergeAnthropicUsage(start, delta)).toEqual({
      input_tokens: 2,
      cache_creation_input_tokens: 3068,
      cache_read_input_tokens: 0,
      output_tokens: 198,
      output_tokens_details: undefined,
    });
  });

  it('replaces cumulative counts instead of adding them', () => {
    const start = { input_tokens: 12, output_tokens: 1 };
    const delta = { input_tokens: 12, cache_read_input_tokens: 0, output_tokens: 30 };
    const merged = mergeAnthropicUsage(start, delta);
    expect(mapAnthropicUsage(merged).input.total).toBe(12);
    expect(mapAnthropicUsage(merged).output.total).toBe(30);
  });

  it('ignores null fields of the later usage', () => {
    expect(mergeAnthropicUsage({ input_tokens: 7 }, { input_tokens: null, output_tokens: 3 })?.input_tokens).toBe(7);
  });

  it('returns whichever side exists', () => {
    expect(mergeAnthropicUsage(undefined, { output_tokens: 1 })).toEqual({ output_tokens: 1 });
    expect(mergeAnthropicUsage({ output_tokens: 1 }, undefined)).toEqual({ output_tokens: 1 });
    expect(mergeAnthropicUsage(undefined, undefined)).toBeUndefined();
  });
});
