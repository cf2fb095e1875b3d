import type { Message } from '@boxagnts/api';
import type { SessionEntry } from '@boxagnts/query';
import type { WorkspaceStore } from '../src/store/store-types.js';

/** What the bench measures: the store, or a raw driver baseline writing the same rows. */
export interface BenchTarget {
  readonly name: string;
  /** Appends `entries` to a session in one transaction. */
  append(sessionId: string, entries: readonly SessionEntry[]): Promise<void>;
  /** The session's messages in order, as the store's `load` gives them. */
  load(sessionId: string): Promise<unknown[]>;
  /**
   * The previous bench's baseline, kept for comparison: three columns as row objects, only the
   * content parsed (less work than the store's `load`, which gives back every entry field).
   */
  loadNarrow?(sessionId: string): Promise<unknown[]>;
  /** Full-text search; resolves with the hits (at most 20). */
  search(query: string): Promise<unknown[]>;
  close(): Promise<void>;
}

/** The store's session API as a bench target. */
export function storeTarget(name: string, store: WorkspaceStore): BenchTarget {
  return {
    name,
    append: (sessionId, entries) => store.sessions.append(sessionId, entries),
    load: (sessionId) => store.sessions.load(sessionId),
    search: (query) => store.sessions.search(query, { limit: 20 }),
    close: () => store.close(),
  };
}

/** The row a raw baseline writes for an entry: the same JSON and search text the store writes. */
export interface RawRow {
  role: Message['role'];
  content: string;
  providerMetadata: string | null;
  model: string | null;
  usage: string | null;
  compaction: string | null;
  searchText: string;
  createdAt: number;
}

/** Serialises entries the way a hand-written driver would (no validation). */
export function rawRows(entries: readonly SessionEntry[]): RawRow[] {
  return entries.map((entry) => {
    const content = entry.message.content;
    const searchText =
      typeof content === 'string'
        ? content
        : content.map((block) => ('text' in block && typeof block.text === 'string' ? block.text : '')).join('\n');
    const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
    return {
      role: entry.message.role,
      content: JSON.stringify(content),
      providerMetadata: json(entry.message.providerMetadata),
      model: entry.model ?? null,
      usage: json(entry.usage),
      compaction: json(entry.compaction),
      searchText,
      createdAt: entry.createdAt ?? Date.now(),
    };
  });
}

/**
 * The columns a raw baseline's load reads: the ones the store reads, in its order (every entry
 * field; not the row id, the session id the caller passed, or the search copy of the text).
 */
export const LOAD_COLUMNS = 'seq, role, content, provider_metadata, model, usage, compaction, created_at';

/** One row of {@link LOAD_COLUMNS}, as the drivers' array modes give it. */
export type RawLoadRow = [
  seq: number,
  role: Message['role'],
  content: string,
  providerMetadata: string | null,
  model: string | null,
  usage: string | null,
  compaction: string | null,
  createdAt: number | string,
];

/**
 * What a hand-written read makes of the rows: the objects the store's `load` gives back (the
 * bench checks they are deep-equal), every JSON column parsed, written inline as a driver's user
 * would.
 */
export function rawEntries(sessionId: string, rows: readonly RawLoadRow[]): unknown[] {
  const entries: unknown[] = [];
  for (const row of rows) {
    const message: Record<string, unknown> = { role: row[1], content: JSON.parse(row[2]) };
    if (row[3] !== null) message.providerMetadata = JSON.parse(row[3]);
    const entry: Record<string, unknown> = { sessionId, seq: row[0], message };
    if (row[4] !== null) entry.model = row[4];
    if (row[5] !== null) entry.usage = JSON.parse(row[5]);
    if (row[6] !== null) entry.compaction = JSON.parse(row[6]);
    entry.createdAt = Number(row[7]);
    entries.push(entry);
  }
  return entries;
}

/** Search words as the store takes them (letters and digits, all required). */
export function searchWords(query: string): string[] {
  return query.match(/[\p{L}\p{N}_]+/gu) ?? [];
}
