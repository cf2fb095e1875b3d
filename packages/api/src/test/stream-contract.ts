import { expect } from 'vitest';
import type { StreamEvent } from '../spec/stream-event.js';

/** Every event of a stream, in order. */
export async function collectEvents(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

/**
 * Asserts the stream contract: at most one message-start (first), blocks started before their
 * deltas and ended once, nothing after the one terminal event, which is last.
 */
export function expectWellFormed(events: readonly StreamEvent[]): void {
  const open = new Set<string>();
  const closed = new Set<string>();
  const terminals = events.filter((event) => event.type === 'message-end' || event.type === 'error');
  expect(terminals).toHaveLength(1);
  expect(events.at(-1)).toBe(terminals[0]);
  const starts = events.filter((event) => event.type === 'message-start');
  expect(starts.length).toBeLessThanOrEqual(1);
  if (starts.length === 1) expect(events[0]?.type).toBe('message-start');
  for (const event of events) {
    switch (event.type) {
      case 'text-start':
      case 'thinking-start':
      case 'tool-call-start':
        expect(open.has(event.blockId) || closed.has(event.blockId)).toBe(false);
        open.add(event.blockId);
        break;
      case 'text-delta':
      case 'thinking-delta':
      case 'thinking-signature-delta':
      case 'tool-call-input-delta':
        expect(open.has(event.blockId)).toBe(true);
        break;
      case 'text-end':
      case 'thinking-end':
      case 'tool-call-end':
        expect(open.has(event.blockId)).toBe(true);
        open.delete(event.blockId);
        closed.add(event.blockId);
        break;
      case 'message-end':
        expect(open.size).toBe(0);
        break;
      default:
        break;
    }
  }
}
