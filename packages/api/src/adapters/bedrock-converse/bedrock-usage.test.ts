import { describe, expect, it } from 'vitest';
import { mapBedrockUsage } from './bedrock-usage.js';

describe('mapBedrockUsage', () => {
  it('adds cache reads and writes to inputTokens, which leaves them out', () => {
    expect(
      mapBedrockUsage({
        inputTokens: 100,
        outputTokens: 40,
        totalTokens: 1340,
        cacheReadInputTokens: 1000,
        cacheWriteInputTokens: 200,
      }),
    ).toEqual({
      input: { total: 1300, noCache: 100, cacheRead: 1000, cacheWrite: 200 },
      output: { total: 40, text: 40, reasoning: 0 },
    });
  });

  it('reads a recorded usage without cache fields', () => {
    expect(mapBedrockUsage({ inputTokens: 22, outputTokens: 55, totalTokens: 77 })).toEqual({
      input: { total: 22, noCache: 22, cacheRead: 0, cacheWrite: 0 },
      output: { total: 55, text: 55, reasoning: 0 },
    });
  });

  it('is all zeros when usage is missing', () => {
    expect(mapBedrockUsage(undefined)).toEqual({
      input: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
      output: { total: 0, text: 0, reasoning: 0 },
    });
  });
});
