import { expect } from 'vitest';
import type { LlmCallOptions, LlmProvider } from '../../spec/provider.js';
import type { LlmRequest } from '../../spec/request.js';
import type { StreamEvent } from '../../spec/stream-event.js';

/** Shared by the anthropic-messages tests: a request, a collector and the stream-contract check. */

/** A minimal request. */
export const helloRequest: LlmRequest = {
  model: 'claude-test',
  maxOutputTokens: 256,
  messages: [{ role: 'user', content: 'Hello' }],
};

/** Reads a whole stream into an array. */
export async function collect(
  provider: LlmProvider,
  request: LlmRequest = helloRequest,
  options: LlmCallOptions = {},
): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of provider.streamMessage(request, options)) events.push(event);
  return events;
}

const START_TYPES = new Set(['text-start', 'thinking-start', 'tool-call-start']);
const END_TYPES = new Set(['text-end', 'thinking-end', 'tool-call-end']);

/**
 * Asserts the stream contract: at most one `message-start`, first; exactly one terminal event,
 * last; every delta and end belongs to a block started before and not yet ended; block ids are
 * unique; after a `message-end` every started block has ended.
 */
export function expectWellFormed(events: readonly StreamEvent[]): void {
  const terminals = events.filter((event) => event.type === 'message-end' || event.type === 'error');
  expect(terminals).toHaveLength(1);
  expect(events.at(-1)).toBe(terminals[0]);
  const starts = events.filter((event) => event.type === 'message-start');
  expect(starts.length).toBeLessThanOrEqual(1);
  if (starts.length === 1) expect(events[0]?.type).toBe('message-start');
  const open = new Set<string>();
  const seen = new Set<string>();
  for (const event of events) {
    if (!('blockId' in event)) continue;
    if (START_TYPES.has(event.type) || event.type === 'redacted-thinking') {
      expect(seen.has(event.blockId), `block ${event.blockId} started twice`).toBe(false);
      seen.add(event.blockId);
      if (event.type !== 'redacted-thinking') open.add(event.blockId);
      continue;
    }
    expect(open.has(event.blockId), `${event.type} for block ${event.blockId} that is not open`).toBe(true);
    if (END_TYPES.has(event.type)) open.delete(event.blockId);
  }
  if (events.at(-1)?.type === 'message-end') expect([...open]).toEqual([]);
}

/** The event types of a stream, in order, with consecutive duplicates collapsed (`text-delta*`). */
export function eventShape(events: readonly StreamEvent[]): string[] {
  const shape: string[] = [];
  for (const event of events) {
    const last = shape.at(-1);
    if (last === event.type || last === `${event.type}*`) shape[shape.length - 1] = `${event.type}*`;
    else shape.push(event.type);
  }
  return shape;
}
