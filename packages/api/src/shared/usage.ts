import type { Usage } from '../spec/usage.js';

/** Token counts as vendors report them; any may be missing. */
export interface UsageInit {
  /** All input tokens, cached or not (OpenAI `prompt_tokens`, Gemini `promptTokenCount`). */
  inputTotal?: number;
  /** Input tokens not served from or written to the cache (Anthropic `input_tokens`). */
  inputNoCache?: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** All output tokens, reasoning included. */
  outputTotal?: number;
  outputText?: number;
  reasoning?: number;
}

/**
 * Builds a consistent {@link Usage} from whatever a vendor reported, deriving the missing parts
 * (`input.total = noCache + cacheRead + cacheWrite`, `output.total = text + reasoning`).
 *
 * @example
 * createUsage({ inputTotal: 1200, cacheRead: 1000, outputTotal: 300, reasoning: 120 });
 * // { input: { total: 1200, noCache: 200, cacheRead: 1000, cacheWrite: 0 }, output: { total: 300, text: 180, reasoning: 120 } }
 */
export function createUsage(init: UsageInit = {}): Usage {
  const cacheRead = init.cacheRead ?? 0;
  const cacheWrite = init.cacheWrite ?? 0;
  const noCache = init.inputNoCache ?? Math.max(0, (init.inputTotal ?? 0) - cacheRead - cacheWrite);
  const reasoning = init.reasoning ?? 0;
  const text = init.outputText ?? Math.max(0, (init.outputTotal ?? 0) - reasoning);
  return {
    input: { total: init.inputTotal ?? noCache + cacheRead + cacheWrite, noCache, cacheRead, cacheWrite },
    output: { total: init.outputTotal ?? text + reasoning, text, reasoning },
  };
}

/** Sums two usages, e.g. to total the calls of one agent run. */
export function addUsage(first: Usage, second: Usage): Usage {
  return {
    input: {
      total: first.input.total + second.input.total,
      noCache: first.input.noCache + second.input.noCache,
      cacheRead: first.input.cacheRead + second.input.cacheRead,
      cacheWrite: first.input.cacheWrite + second.input.cacheWrite,
    },
    output: {
      total: first.output.total + second.output.total,
      text: first.output.text + second.output.text,
      reasoning: first.output.reasoning + second.output.reasoning,
    },
  };
}
