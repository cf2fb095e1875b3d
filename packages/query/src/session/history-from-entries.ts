import type { Message } from '@boxagnts/api';
import { repairHistory } from './repair-history.js';
import type { SessionEntry } from './session-store.js';

/**
 * The history to continue a session with: what the latest compaction left (its summary plus the
 * messages it kept) and everything after it, repaired so every tool call has a result (an
 * interrupted call gets an error result; nothing is re-run).
 *
 * @example
 * const messages = historyFromEntries(await store.load(sessionId));
 * messages.push({ role: 'user', content: 'Go on.' });
 */
export function historyFromEntries(entries: readonly SessionEntry[]): Message[] {
  return repairHistory(compactedHistory(entries)).messages;
}

/**
 * The stored history as the model last saw it: what the latest compaction left (its summary and
 * the messages it kept) and everything after it, without repairs.
 */
export function compactedHistory(entries: readonly SessionEntry[]): Message[] {
  let start = 0;
  let kept: Message[] = [];
  for (let index = entries.length - 1; index >= 0; index--) {
    const compaction = (entries[index] as SessionEntry).compaction;
    if (compaction === undefined) continue;
    const before = entries.slice(0, index).map((entry) => entry.message);
    kept = compaction.keptMessages > 0 ? before.slice(-compaction.keptMessages) : [];
    start = index;
    break;
  }
  const tail = entries.slice(start).map((entry) => entry.message);
  return start === 0 && kept.length === 0 ? tail : [tail[0] as Message, ...kept, ...tail.slice(1)];
}
