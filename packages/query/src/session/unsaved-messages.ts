import type { Message } from '@boxagnts/api';
import { compactedHistory } from './history-from-entries.js';
import type { SessionEntry } from './session-store.js';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const child = (value as Record<string, unknown>)[key];
    if (child !== undefined) out[key] = canonical(child);
  }
  return out;
}

/** Whether two messages are the same, whatever the key order or absent-versus-undefined fields. */
export function sameMessage(a: Message, b: Message): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/**
 * Which of `messages` a run must store before calling the model: all of them for a new session;
 * otherwise those after the last stored message (found from the end, so a history resumed after a
 * compaction, shorter than what is stored, still works). `undefined` when the history does not
 * continue the stored session at all (the caller must say how many are new).
 */
export function unsavedMessages(messages: readonly Message[], stored: readonly SessionEntry[]): Message[] | undefined {
  const last = stored.at(-1)?.message;
  if (last === undefined) return [...messages];
  // The usual case: the stored history (as compaction left it) followed by new messages.
  const base = compactedHistory(stored);
  if (
    base.length <= messages.length &&
    base.every((message, index) => sameMessage(messages[index] as Message, message))
  ) {
    return messages.slice(base.length);
  }
  for (let index = messages.length - 1; index >= 0; index--) {
    if (sameMessage(messages[index] as Message, last)) return messages.slice(index + 1);
  }
  return undefined;
}
