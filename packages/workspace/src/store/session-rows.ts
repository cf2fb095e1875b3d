import type { Message } from '@boxagnts/api';
import type { SessionEntry } from '@boxagnts/query';
import type { Selectable } from 'kysely';
import { messageSearchText } from './message-text.js';
import type { SessionsTable } from './store-database.js';
import type { SessionRecord } from './store-types.js';

/** A message row to insert, without its session and position. */
export interface PreparedEntry {
  role: Message['role'];
  content: string;
  provider_metadata: string | null;
  model: string | null;
  usage: string | null;
  compaction: string | null;
  created_at: number | null;
  search_text: string;
}

/** Serialises a validated entry; throws when it cannot be written as JSON (a cycle, too deep). */
export function prepareEntry(entry: SessionEntry): PreparedEntry {
  const message = entry.message;
  return {
    role: message.role,
    content: JSON.stringify(message.content),
    provider_metadata: message.providerMetadata === undefined ? null : JSON.stringify(message.providerMetadata),
    model: entry.model ?? null,
    usage: entry.usage === undefined ? null : JSON.stringify(entry.usage),
    compaction: entry.compaction === undefined ? null : JSON.stringify(entry.compaction),
    created_at: entry.createdAt ?? null,
    search_text: messageSearchText(message),
  };
}

/** The public record of a session row. */
export function sessionRecordFromRow(row: Selectable<SessionsTable>): SessionRecord {
  const record: SessionRecord = {
    id: row.id,
    title: row.title,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    messageCount: Number(row.message_count),
    kind: row.kind ?? 'session',
  };
  if (row.agent !== null) record.agent = row.agent;
  if (row.model !== null) record.model = row.model;
  if (row.parent_session_id !== null) record.parentSessionId = row.parent_session_id;
  if (row.forked_at_seq !== null) record.forkedAtSeq = Number(row.forked_at_seq);
  return record;
}

const TITLE_LENGTH = 80;

/** A title for a session created by its first append: the start of the first user text. */
export function titleFromEntries(entries: readonly SessionEntry[]): string {
  for (const entry of entries) {
    if (entry.message.role !== 'user') continue;
    const text = messageSearchText(entry.message).replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    return text.length <= TITLE_LENGTH ? text : `${text.slice(0, TITLE_LENGTH - 1)}…`;
  }
  return '';
}
