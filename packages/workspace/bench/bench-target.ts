import type { Message } from '@boxagnts/api';
import type { SessionEntry } from '@boxagnts/query';
import type { WorkspaceStore } from '../src/store/store-types.js';

/** What the bench measures: the store, or a raw driver baseline writing the same rows. */
export interface BenchTarget {
  readonly name: string;
  /** Appends `entries` to a session in one transaction. */
  append(sessionId: string, entries: readonly SessionEntry[]): Promise<void>;
  /** The session's messages in order (parsed). */
  load(sessionId: string): Promise<unknown[]>;
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
    return {
      role: entry.message.role,
      content: JSON.stringify(content),
      searchText,
      createdAt: entry.createdAt ?? Date.now(),
    };
  });
}

/** Search words as the store takes them (letters and digits, all required). */
export function searchWords(query: string): string[] {
  return query.match(/[\p{L}\p{N}_]+/gu) ?? [];
}
