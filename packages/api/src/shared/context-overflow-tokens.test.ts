import { describe, expect, it } from 'vitest';
import { parseContextOverflowTokens } from './context-overflow-tokens.js';

describe('parseContextOverflowTokens', () => {
  it.each([
    ['prompt is too long: 208310 tokens > 200000 maximum', 208_310, 200_000],
    [
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.",
      130_000,
      128_000,
    ],
    [
      "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).",
      5_000,
      4_096,
    ],
    ['The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', 1_200_000, 1_048_576],
    [
      'input length and `max_tokens` exceed context limit: 197000 + 8192 > 200000, decrease input length or `max_tokens` and try again',
      205_192,
      200_000,
    ],
    ["This model's maximum prompt length is 131072 but the request contains 150000 tokens.", 150_000, 131_072],
    ['prompt is too long: 1,208,310 tokens > 1,000,000 maximum', 1_208_310, 1_000_000],
    ['Request has 9000 tokens which exceeds the limit of 8192', 9_000, 8_192],
  ])('%s', (message, requested, limit) => {
    expect(parseContextOverflowTokens(message)).toEqual({ requestedTokens: requested, limitTokens: limit });
  });

  it('returns undefined counts when the message has none', () => {
    expect(parseContextOverflowTokens('the request exceeds the available context size')).toEqual({
      requestedTokens: undefined,
      limitTokens: undefined,
    });
  });
});
