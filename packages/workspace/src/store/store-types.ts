import type { Message, Usage } from '@boxagnts/api';
import type { ChildSessionInfo, ModelCallPurpose, ModelCallRecord, SessionEntry, SessionStore } from '@boxagnts/query';
import type { CronStore } from '../cron/cron-types.js';
import type { SiteStore } from '../sites/site-store.js';
import type { SessionKind } from './store-database.js';

export type { SessionKind };

/** Where the store lives: a SQLite file (default) or a PostgreSQL database shared by several gateways. */
export type StoreConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** A session's row. */
export interface SessionRecord {
  id: string;
  title: string;
  agent?: string;
  model?: string;
  /** `session`, `fork` (made by `fork()`) or `sub-agent` (a sub-agent's transcript, see `createChildSession`). */
  kind: SessionKind;
  /** The session this one was forked from (with `forkedAtSeq`), or whose run started this sub-agent. */
  parentSessionId?: string;
  forkedAtSeq?: number;
  createdAt: number;
  updatedAt: number;
  messageCount: number;
}

/** One stored message with its position. */
export interface StoredMessage extends SessionEntry {
  sessionId: string;
  /** 1-based order within the session. */
  seq: number;
}

/** One model call's usage and cost. */
export interface UsageRecord {
  sessionId?: string;
  provider: string;
  model: string;
  agent?: string;
  /** The sub-agent id, when the call was made by one. */
  subAgent?: string;
  usage: Usage;
  /** USD; undefined when the model has no price. */
  costUsd?: number;
  /**
   * Why the call was made: the loop's `turn`, `compaction`, `summary` or `other`, or a purpose of
   * your own (1-64 characters: lowercase letters, digits, `-`, `_`). Reports group an unset one under `''`.
   */
  purpose?: ModelCallPurpose | (string & {});
  createdAt?: number;
}

/** A usage report row, grouped by one dimension. */
export interface UsageReportRow {
  key: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  costUsd: number;
}

/** A search hit over message text. */
export interface MessageSearchHit {
  sessionId: string;
  seq: number;
  role: Message['role'];
  /** The matching text with the match marked. */
  snippet: string;
}

/**
 * The session store of a workspace: the query loop's append-only {@link SessionStore}, plus what
 * hosts need to manage sessions. Every write is one immediate transaction.
 */
export interface WorkspaceSessionStore extends SessionStore {
  /** The session's stored entries in order, each with its `sessionId` and `seq`; `[]` when unknown. */
  load(sessionId: string): Promise<StoredMessage[]>;
  create(session: { id?: string; title?: string; agent?: string; model?: string }): Promise<SessionRecord>;
  get(sessionId: string): Promise<SessionRecord | undefined>;
  /** Most recently updated first; `parentSessionId` keeps only that session's forks and sub-agent sessions. */
  list(options?: { limit?: number; offset?: number; parentSessionId?: string }): Promise<SessionRecord[]>;
  /** The forks and sub-agent sessions of a session, most recently updated first (at most 1000). */
  children(sessionId: string): Promise<SessionRecord[]>;
  /** Stores a sub-agent's session linked to its parent (see {@link SessionStore.createChildSession}). */
  createChildSession(child: ChildSessionInfo): Promise<void>;
  /** Records one model call of a run in the usage records (see {@link UsageStore.record}). */
  recordUsage(record: ModelCallRecord): Promise<void>;
  rename(sessionId: string, title: string): Promise<void>;
  delete(sessionId: string): Promise<void>;
  /** A new session holding the messages up to and including `atSeq`. */
  fork(sessionId: string, atSeq: number, options?: { id?: string; title?: string }): Promise<SessionRecord>;
  search(query: string, options?: { limit?: number; sessionId?: string }): Promise<MessageSearchHit[]>;
  /** One JSON object per line: a header line with the session, then one line per message. */
  exportJsonl(sessionId: string): Promise<string>;
  importJsonl(jsonl: string, options?: { id?: string }): Promise<SessionRecord>;
  /** The history to resume, repaired (see `historyFromEntries` of @boxagnts/query). */
  resume(sessionId: string): Promise<Message[]>;
}

/** What a usage report groups by. */
export type UsageGroupBy = 'day' | 'model' | 'provider' | 'agent' | 'session' | 'purpose' | 'subAgent';

/** Usage and cost records and reports. */
export interface UsageStore {
  record(record: UsageRecord): Promise<void>;
  report(groupBy: UsageGroupBy, options?: { since?: number; until?: number }): Promise<UsageReportRow[]>;
}

/** The whole store of a workspace. */
export interface WorkspaceStore {
  readonly kind: 'sqlite' | 'postgres';
  sessions: WorkspaceSessionStore;
  usage: UsageStore;
  /** The `sites` table (metadata of the folders the gateway serves; see `workspaceSites`). */
  sites: SiteStore;
  /** Cron jobs and their run log (`cron_jobs`, `cron_runs`). */
  cron: CronStore;
  /** Schema version after migrations. */
  schemaVersion(): Promise<number>;
  close(): Promise<void>;
}
