import { describe, expect, it } from 'vitest';
import { mapOllamaUsage } from './ollama-usage.js';

describe('mapOllamaUsage', () => {
  it('maps prompt_eval_count to uncached input and eval_count to output', () => {
    expect(mapOllamaUsage({ prompt_eval_count: 26, eval_count: 298 })).toEqual({
      input: { total: 26, noCache: 26, cacheRead: 0, cacheWrite: 0 },
      output: { total: 298, text: 298, reasoning: 0 },
    });
  });

  it('is zero when Ollama leaves the counts out (a fully cached prompt omits prompt_eval_count)', () => {
    expect(mapOllamaUsage({ eval_count: 3 }).input.total).toBe(0);
    expect(mapOllamaUsage({}).output.total).toBe(0);
  });
});
