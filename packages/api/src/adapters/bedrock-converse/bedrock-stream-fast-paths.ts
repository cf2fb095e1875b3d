import type { z } from 'zod';
import type { contentBlockDeltaEventSchema, messageStopEventSchema } from './bedrock-wire.js';

// Plain checks for the payloads of nearly every ConverseStream frame, so zod (which stays the judge
// of everything else, and words the errors) is not run per token. Each accepts only what the
// schema accepts as is.

/** A `contentBlockDelta` payload as the schema reads it. */
export type ContentBlockDeltaEvent = z.infer<typeof contentBlockDeltaEventSchema>;

/**
 * The payload as a `contentBlockDelta` when it has the shape of a text delta or a reasoning delta
 * (what nearly every frame is) and the schema would accept it as is; otherwise undefined, and zod
 * decides (and words the error).
 */
export function fastDelta(payload: unknown): ContentBlockDeltaEvent | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const event = payload as { contentBlockIndex?: unknown; delta?: unknown };
  const change = event.delta as { text?: unknown; toolUse?: unknown; reasoningContent?: unknown } | null | undefined;
  if (typeof event.contentBlockIndex !== 'number' || typeof change !== 'object' || change === null) return undefined;
  if (change.toolUse !== undefined) return undefined;
  if (typeof change.text === 'string') {
    return change.reasoningContent === undefined ? (payload as ContentBlockDeltaEvent) : undefined;
  }
  const reasoning = change.reasoningContent as Record<string, unknown> | null | undefined;
  if (change.text !== undefined || typeof reasoning !== 'object' || reasoning === null || Array.isArray(reasoning)) {
    return undefined;
  }
  return isOptionalString(reasoning.text) &&
    isOptionalString(reasoning.signature) &&
    isOptionalString(reasoning.redactedContent)
    ? (payload as ContentBlockDeltaEvent)
    : undefined;
}

/** A `messageStop` payload the schema accepts as is (an object whose `stopReason` is a string or absent). */
export function isMessageStop(payload: unknown): payload is z.infer<typeof messageStopEventSchema> {
  return (
    typeof payload === 'object' &&
    payload !== null &&
    !Array.isArray(payload) &&
    isOptionalString((payload as { stopReason?: unknown }).stopReason)
  );
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}
