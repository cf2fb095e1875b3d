import { createUsage } from '../../shared/usage.js';
import type { Usage } from '../../spec/usage.js';

/**
 * Maps Ollama's counts to {@link Usage}: `prompt_eval_count` is the prompt tokens Ollama evaluated
 * (a prefix it reused from its KV cache is not counted, and it reports no cache figures, so all of it
 * is `noCache`), `eval_count` the generated tokens, thinking included (Ollama does not split it out).
 *
 * @see https://docs.ollama.com/api/usage
 */
export function mapOllamaUsage(counts: {
  prompt_eval_count?: number | undefined;
  eval_count?: number | undefined;
}): Usage {
  return createUsage({ inputTotal: counts.prompt_eval_count ?? 0, outputTotal: counts.eval_count ?? 0 });
}
