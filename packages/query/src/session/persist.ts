import type { Message } from '@boxagnts/api';
import type { QueryOptions } from '../config.js';
import type { ModelCallRecord, SessionEntry } from './session-store.js';
import { unsavedMessages } from './unsaved-messages.js';

/** The session a run writes to: `QueryOptions.session`. */
export type RunSession = NonNullable<QueryOptions['session']>;

/** Appends entries to the run's session, when it has one: every message the loop stores goes through here. */
export function persist(session: RunSession | undefined, entries: SessionEntry[]): Promise<void> | undefined {
  return session === undefined ? undefined : session.store.append(session.sessionId, entries);
}

/** Records one model call in the run's store, when it has one that records usage. */
export function persistUsage(session: RunSession | undefined, record: ModelCallRecord): Promise<void> | undefined {
  return session?.store.recordUsage === undefined ? undefined : session.store.recordUsage(record);
}

/**
 * Stores the new messages a run starts with (before the model is called). Returns an error
 * message when `messages` do not continue the stored session.
 */
export async function persistStart(
  session: RunSession | undefined,
  messages: readonly Message[],
): Promise<string | undefined> {
  if (session === undefined || messages.length === 0) return undefined;
  const unsaved =
    session.unsaved !== undefined
      ? messages.slice(messages.length - Math.min(session.unsaved, messages.length))
      : unsavedMessages(messages, await session.store.load(session.sessionId));
  if (unsaved === undefined) {
    return (
      `The messages do not continue session "${session.sessionId}": none of them is the last stored message. ` +
      'Pass session.unsaved (how many trailing messages are new), or start from historyFromEntries(await store.load(id)).'
    );
  }
  if (unsaved.length > 0)
    await persist(
      session,
      unsaved.map((message) => ({ message })),
    );
  return undefined;
}
