import { createUsage } from '../../shared/usage.js';
import type { Usage } from '../../spec/usage.js';
import type { ChatUsage } from './openai-chat-wire.js';

/**
 * Maps Chat Completions usage to {@link Usage}. `prompt_tokens` already counts cached tokens
 * (`prompt_tokens_details.cached_tokens`, or DeepSeek's `prompt_cache_hit_tokens`), so the cached
 * part is split out of it, never added. `completion_tokens` counts reasoning
 * (`completion_tokens_details.reasoning_tokens`) except at xAI, whose `total_tokens` shows reasoning
 * on top of it: when `prompt + completion + reasoning === total` (and `prompt + completion` does not),
 * reasoning is added to the output total. Returns `undefined` when nothing was counted.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 * @see https://api-docs.deepseek.com/guides/kv_cache
 * @see https://docs.x.ai/docs/guides/reasoning
 */
export function mapUsage(usage: ChatUsage | null | undefined): Usage | undefined {
  if (usage === null || usage === undefined) return undefined;
  const hit = usage.prompt_cache_hit_tokens ?? undefined;
  const miss = usage.prompt_cache_miss_tokens ?? undefined;
  const prompt =
    usage.prompt_tokens ?? (hit !== undefined || miss !== undefined ? (hit ?? 0) + (miss ?? 0) : undefined);
  const completion = usage.completion_tokens ?? undefined;
  if (prompt === undefined && completion === undefined) return undefined;
  const cacheRead = usage.prompt_tokens_details?.cached_tokens ?? hit ?? 0;
  const cacheWrite = usage.prompt_tokens_details?.cache_write_tokens ?? 0;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  const total = usage.total_tokens ?? undefined;
  const reasoningOutsideCompletion =
    reasoning > 0 &&
    total !== undefined &&
    (prompt ?? 0) + (completion ?? 0) !== total &&
    (prompt ?? 0) + (completion ?? 0) + reasoning === total;
  const outputTotal = (completion ?? 0) + (reasoningOutsideCompletion ? reasoning : 0);
  return createUsage({
    inputTotal: prompt ?? cacheRead + cacheWrite,
    cacheRead: Math.min(cacheRead, prompt ?? cacheRead),
    cacheWrite,
    outputTotal,
    reasoning: Math.min(reasoning, outputTotal),
  });
}

/** Whether two usages hold the same numbers (servers that repeat usage on every chunk). */
export function sameUsage(first: Usage | undefined, second: Usage | undefined): boolean {
  if (first === undefined || second === undefined) return first === second;
  return (
    first.input.total === second.input.total &&
    first.input.cacheRead === second.input.cacheRead &&
    first.input.cacheWrite === second.input.cacheWrite &&
    first.output.total === second.output.total &&
    first.output.reasoning === second.output.reasoning
  );
}
