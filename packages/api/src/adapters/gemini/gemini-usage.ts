import { createUsage } from '../../shared/usage.js';
import type { Usage } from '../../spec/usage.js';
import type { GeminiUsageMetadata } from './gemini-wire.js';

/**
 * Maps Gemini `usageMetadata` to {@link Usage}. `promptTokenCount` already counts the cached
 * tokens (`cachedContentTokenCount` is a subset of it), so the cache is not added twice; tokens of
 * built-in tool results (`toolUsePromptTokenCount`) are input too. `candidatesTokenCount` leaves the
 * thoughts out, so output is candidates + `thoughtsTokenCount`. Gemini reports no cache writes.
 *
 * @see https://ai.google.dev/api/generate-content#UsageMetadata
 */
export function mapGeminiUsage(metadata: GeminiUsageMetadata | undefined): Usage {
  if (metadata === undefined) return createUsage();
  const prompt = (metadata.promptTokenCount ?? 0) + (metadata.toolUsePromptTokenCount ?? 0);
  const cached = Math.min(metadata.cachedContentTokenCount ?? 0, prompt);
  const reasoning = metadata.thoughtsTokenCount ?? 0;
  const text = metadata.candidatesTokenCount ?? 0;
  return createUsage({ inputTotal: prompt, cacheRead: cached, outputText: text, reasoning });
}

/** Whether a `usageMetadata` carries token counts (Vertex sends `{trafficType}` alone on early chunks). */
export function hasTokenCounts(metadata: GeminiUsageMetadata | undefined): boolean {
  return (
    metadata !== undefined &&
    (metadata.promptTokenCount !== undefined ||
      metadata.candidatesTokenCount !== undefined ||
      metadata.thoughtsTokenCount !== undefined ||
      metadata.totalTokenCount !== undefined)
  );
}
