// Helpers shared by this adapter's tests. Named `*.test.*` so the package files leave it out of dist.
import { expect } from 'vitest';
import { MessageAssembler } from '../../shared/message-assembler.js';
import type { AssistantResponse } from '../../spec/response.js';
import type { StreamEvent } from '../../spec/stream-event.js';

/** Reads a whole event stream. */
export async function collectEvents(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

/** The response the events assemble to (whatever the terminal event). */
export function assemble(events: readonly StreamEvent[]): AssistantResponse {
  const assembler = new MessageAssembler();
  for (const event of events) assembler.push(event);
  return assembler.toResponse();
}

const START_TYPES = new Set(['text-start', 'thinking-start', 'tool-call-start']);
const DELTA_TYPES = new Set(['text-delta', 'thinking-delta', 'thinking-signature-delta', 'tool-call-input-delta']);
const END_TYPES = new Set(['text-end', 'thinking-end', 'tool-call-end']);

/**
 * Asserts the stream contract: exactly one terminal event and it is last; message-start (when any)
 * comes first; every delta and end belongs to a started, still-open block of the same kind; block
 * ids are not reused; after a `message-end` every block was closed.
 */
export function expectWellFormed(events: readonly StreamEvent[]): void {
  const terminals = events.filter((event) => event.type === 'message-end' || event.type === 'error');
  expect(terminals).toHaveLength(1);
  expect(events.at(-1)).toBe(terminals[0]);
  const starts = events.filter((event) => event.type === 'message-start');
  expect(starts.length).toBeLessThanOrEqual(1);
  if (starts.length === 1) expect(events[0]?.type).toBe('message-start');
  const open = new Map<string, string>();
  const seen = new Set<string>();
  for (const event of events) {
    if (START_TYPES.has(event.type)) {
      const { blockId } = event as { blockId: string };
      expect(seen.has(blockId), `block ${blockId} started twice`).toBe(false);
      seen.add(blockId);
      open.set(blockId, event.type.replace('-start', ''));
    } else if (DELTA_TYPES.has(event.type) || END_TYPES.has(event.type)) {
      const { blockId } = event as { blockId: string };
      const kind = event.type.replace(/-(?:input-)?(?:signature-)?(?:delta|end)$/, '');
      expect(open.get(blockId), `${event.type} for block ${blockId} that is not open`).toBe(kind);
      if (END_TYPES.has(event.type)) open.delete(blockId);
    }
  }
  if (terminals[0]?.type === 'message-end') expect([...open.keys()]).toEqual([]);
}

/** The event types in order, deltas of a block collapsed into one entry (for readable sequence checks). */
export function eventOutline(events: readonly StreamEvent[]): string[] {
  const outline: string[] = [];
  for (const event of events) {
    const entry = 'blockId' in event ? `${event.type}:${event.blockId}` : event.type;
    if (DELTA_TYPES.has(event.type) && outline.at(-1) === entry) continue;
    outline.push(entry);
  }
  return outline;
}

/** The text (or thinking) of a response, all blocks of that kind joined. */
export function textOf(response: AssistantResponse, type: 'text' | 'thinking'): string {
  return response.message.content
    .map((block) => {
      if (block.type === 'text' && type === 'text') return block.text;
      if (block.type === 'thinking' && type === 'thinking') return block.thinking;
      return '';
    })
    .join('');
}
