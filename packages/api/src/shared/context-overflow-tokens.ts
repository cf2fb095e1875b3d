/** Token counts a vendor stated in a context-overflow message. */
export interface ContextOverflowTokens {
  requestedTokens: number | undefined;
  limitTokens: number | undefined;
}

const NUMBER = String.raw`(\d[\d,_]*)`;

/** Each pattern captures two numbers and says which is which. */
const PATTERNS: ReadonlyArray<{ pattern: RegExp; order: 'requested-limit' | 'limit-requested' }> = [
  // Anthropic: "prompt is too long: 208310 tokens > 200000 maximum"
  { pattern: new RegExp(String.raw`too long:\s*${NUMBER}\s*tokens?\s*>\s*${NUMBER}`, 'i'), order: 'requested-limit' },
  // OpenAI and compatibles: "maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens"
  // vLLM: "maximum context length is 4096 tokens. However, you requested 5000 tokens"
  {
    pattern: new RegExp(
      String.raw`maximum context length is\s*${NUMBER}\s*tokens?[\s\S]*?(?:resulted in|requested|contains?)\s*${NUMBER}\s*tokens?`,
      'i',
    ),
    order: 'limit-requested',
  },
  // Gemini: "input token count (1200000) exceeds the maximum number of tokens allowed (1048576)"
  {
    pattern: new RegExp(
      String.raw`input token count\s*(?:\(|of|is)?\s*${NUMBER}\)?\s*exceeds the maximum number of tokens allowed\s*(?:\(|of|is)?\s*${NUMBER}`,
      'i',
    ),
    order: 'requested-limit',
  },
  // xAI: "maximum prompt length is 131072 but the request contains 150000 tokens"
  {
    pattern: new RegExp(String.raw`maximum prompt length is\s*${NUMBER}[\s\S]*?contains\s*${NUMBER}\s*tokens?`, 'i'),
    order: 'limit-requested',
  },
  // Generic: "130000 tokens exceeds the limit of 128000" / "9000 tokens which exceeds the maximum of 8192"
  {
    pattern: new RegExp(
      String.raw`${NUMBER}\s*tokens?,?\s*(?:which\s*|that\s*)?(?:exceeds?|is more than|is greater than)\s*(?:the\s*)?(?:maximum|limit|max)[^\d]{0,40}${NUMBER}`,
      'i',
    ),
    order: 'requested-limit',
  },
];

// Anthropic: "input length and `max_tokens` exceed context limit: 197000 + 8192 > 200000"
const SUM_PATTERN = new RegExp(String.raw`${NUMBER}\s*\+\s*${NUMBER}\s*>\s*${NUMBER}`);

/**
 * Extracts the requested and allowed token counts from a vendor's context-overflow message, in the
 * shapes Anthropic, OpenAI (and compatibles such as vLLM, DeepSeek), Gemini and xAI use. Counts that
 * cannot be found are `undefined`.
 */
export function parseContextOverflowTokens(message: string): ContextOverflowTokens {
  const sum = SUM_PATTERN.exec(message);
  if (sum !== null) {
    const input = toNumber(sum[1]);
    const output = toNumber(sum[2]);
    return {
      requestedTokens: input !== undefined && output !== undefined ? input + output : undefined,
      limitTokens: toNumber(sum[3]),
    };
  }
  for (const { pattern, order } of PATTERNS) {
    const match = pattern.exec(message);
    if (match === null) continue;
    const first = toNumber(match[1]);
    const second = toNumber(match[2]);
    return order === 'requested-limit'
      ? { requestedTokens: first, limitTokens: second }
      : { requestedTokens: second, limitTokens: first };
  }
  return { requestedTokens: undefined, limitTokens: undefined };
}

function toNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text.replace(/[,_]/g, ''));
  return Number.isSafeInteger(value) ? value : undefined;
}
