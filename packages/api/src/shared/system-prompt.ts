import type { SystemPrompt } from '../spec/request.js';

/** A run of system-prompt text; `cacheBreakpoint` marks the last segment before a cache boundary. */
export interface SystemPromptSegment {
  text: string;
  cacheBreakpoint: boolean;
}

/**
 * Splits a system prompt into its text segments, flagging the segment just before each
 * `cache-boundary` part, where an adapter puts its prompt-cache breakpoint (Anthropic
 * `cache_control`). Empty text parts are dropped, since vendors reject empty blocks.
 *
 * @example
 * systemPromptSegments([{ type: 'text', text: 'You are…' }, { type: 'cache-boundary' }, { type: 'text', text: 'Today is…' }]);
 * // [{ text: 'You are…', cacheBreakpoint: true }, { text: 'Today is…', cacheBreakpoint: false }]
 */
export function systemPromptSegments(system: SystemPrompt | undefined): SystemPromptSegment[] {
  if (system === undefined) return [];
  if (typeof system === 'string') return system === '' ? [] : [{ text: system, cacheBreakpoint: false }];
  const segments: SystemPromptSegment[] = [];
  for (const part of system) {
    if (part.type === 'text') {
      if (part.text !== '') segments.push({ text: part.text, cacheBreakpoint: false });
      continue;
    }
    const last = segments.at(-1);
    if (last !== undefined) last.cacheBreakpoint = true;
  }
  return segments;
}

/**
 * The system prompt as one string, for vendors that take a single text (segments joined with a
 * blank line); vendors that cache prefixes automatically still hit, since the stable text comes first.
 */
export function systemPromptText(system: SystemPrompt | undefined, separator = '\n\n'): string {
  return systemPromptSegments(system)
    .map((segment) => segment.text)
    .join(separator);
}
