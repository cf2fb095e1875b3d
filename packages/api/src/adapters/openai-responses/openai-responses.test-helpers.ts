import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageAssembler } from '../../shared/message-assembler.js';
import type { LlmProvider } from '../../spec/provider.js';
import type { LlmRequest } from '../../spec/request.js';
import type { AssistantResponse } from '../../spec/response.js';
import type { StreamEvent } from '../../spec/stream-event.js';

// Helpers shared by this adapter's tests (not a test file itself).

/** Every event of one `streamMessage` call. */
export async function collectEvents(
  provider: LlmProvider,
  request: LlmRequest,
  signal?: AbortSignal,
): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of provider.streamMessage(request, signal === undefined ? {} : { signal })) events.push(event);
  return events;
}

/** The message the events assemble to (a partial one when they end with an error). */
export function assemble(events: readonly StreamEvent[]): AssistantResponse {
  const assembler = new MessageAssembler();
  for (const event of events) assembler.push(event);
  return assembler.toResponse();
}

const START_TYPES: Record<string, string> = {
  'text-start': 'text',
  'thinking-start': 'thinking',
  'tool-call-start': 'tool',
};
const DELTA_TYPES: Record<string, string> = {
  'text-delta': 'text',
  'thinking-delta': 'thinking',
  'thinking-signature-delta': 'thinking',
  'tool-call-input-delta': 'tool',
};
const END_TYPES: Record<string, string> = { 'text-end': 'text', 'thinking-end': 'thinking', 'tool-call-end': 'tool' };

/**
 * The ways an event sequence breaks the stream contract (empty when it is well formed): it starts
 * with `message-start`; every delta and end belongs to a block of the same kind that started and
 * has not ended; block ids are unique; exactly one terminal event comes last; after `message-end`
 * no block is left open.
 */
export function contractViolations(events: readonly StreamEvent[]): string[] {
  const problems: string[] = [];
  const open = new Map<string, string>();
  const seen = new Set<string>();
  if (events[0]?.type !== 'message-start') problems.push(`first event is ${events[0]?.type}, not message-start`);
  events.forEach((event, index) => {
    const terminal = event.type === 'message-end' || event.type === 'error';
    if (terminal && index !== events.length - 1) problems.push(`terminal ${event.type} at ${index} is not last`);
    if (!('blockId' in event)) return;
    const started = START_TYPES[event.type];
    if (started !== undefined || event.type === 'redacted-thinking') {
      if (seen.has(event.blockId)) problems.push(`block ${event.blockId} started twice`);
      seen.add(event.blockId);
      if (started !== undefined) open.set(event.blockId, started);
      return;
    }
    const kind = DELTA_TYPES[event.type] ?? END_TYPES[event.type];
    if (open.get(event.blockId) !== kind) problems.push(`${event.type} at ${index} for a block that is not open`);
    if (END_TYPES[event.type] !== undefined) open.delete(event.blockId);
  });
  const last = events.at(-1);
  if (last?.type !== 'message-end' && last?.type !== 'error') problems.push('no terminal event');
  if (last?.type === 'message-end' && open.size > 0) problems.push(`blocks left open: ${[...open.keys()].join(', ')}`);
  return problems;
}

/** Writes hand-made Responses payloads (one JSON value or raw line each) to a temporary `.chunks.txt`. */
export function writeChunks(lines: ReadonlyArray<Record<string, unknown> | string>): string {
  const directory = mkdtempSync(join(tmpdir(), 'openai-responses-'));
  const path = join(directory, 'scripted.chunks.txt');
  writeFileSync(path, `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`);
  return path;
}
