import type { Message } from '@boxagnts/api';
import type { MessageColumns } from './store-backend.js';
import type { StoredMessage } from './store-types.js';

export type { MessageColumns } from './store-backend.js';

/**
 * The query behind `load`: a session's rows in order, with every column an entry needs and no
 * other (not `id`, not `session_id`, which the caller passed, not `search_text`, a second copy of
 * the text for the index). `placeholder` is the driver's parameter mark (`?` or `$1`).
 */
export function loadMessagesSql(placeholder: string): string {
  return `SELECT seq, role, content, provider_metadata, model, usage, compaction, created_at FROM messages WHERE session_id = ${placeholder} ORDER BY seq`;
}

/**
 * The entry a row holds, with its session and position. A column that is not JSON throws
 * `JSON.parse`'s SyntaxError, which the caller turns into a `database` StoreError.
 */
export function storedMessageFromColumns(sessionId: string, row: MessageColumns): StoredMessage {
  const message = { role: row[1], content: JSON.parse(row[2]) } as Message;
  if (row[3] !== null) message.providerMetadata = JSON.parse(row[3]);
  const stored: StoredMessage = { sessionId, seq: Number(row[0]), message };
  if (row[4] !== null) stored.model = row[4];
  if (row[5] !== null) stored.usage = JSON.parse(row[5]);
  if (row[6] !== null) stored.compaction = JSON.parse(row[6]);
  stored.createdAt = Number(row[7]);
  return stored;
}

/** Every row of a session as entries, in order. */
export function storedMessagesFromColumns(sessionId: string, rows: readonly MessageColumns[]): StoredMessage[] {
  const messages: StoredMessage[] = [];
  for (const row of rows) messages.push(storedMessageFromColumns(sessionId, row));
  return messages;
}
