import type { Message, Usage } from '@boxagnts/api';

/** One stored message with what the store may record beside it. */
export interface SessionEntry {
  message: Message;
  /** The model that wrote an assistant message. */
  model?: string;
  /** Usage of the call that produced an assistant message. */
  usage?: Usage;
  /** Epoch milliseconds. */
  createdAt?: number;
  /**
   * Set on the summary that compaction wrote: the history from here on is this message followed by
   * the last `keptMessages` messages stored before it (see `historyFromEntries`).
   */
  compaction?: { keptMessages: number };
}

/**
 * Where a run's history is kept, append-only: the loop stores the user message before it calls the
 * model, and each assistant message and its tool results before the next call, so a crash loses
 * nothing acknowledged. @boxagnts/workspace implements it on SQLite and PostgreSQL.
 */
export interface SessionStore {
  /** Appends entries in order; resolves once they are durable. */
  append(sessionId: string, entries: readonly SessionEntry[]): Promise<void>;
  /** The session's entries in order; an unknown session has none. */
  load(sessionId: string): Promise<SessionEntry[]>;
  /**
   * Records one model call of a run (its turns, its sub-agents' turns and its auxiliary calls such
   * as compaction summaries) for usage reports. Optional: a store without it records no usage.
   */
  recordUsage?(record: ModelCallRecord): Promise<void>;
  /**
   * Creates the session that holds a sub-agent's transcript, linked to its parent session, before
   * the sub-agent's first message is appended. Optional: without it sub-agent transcripts are not stored.
   */
  createChildSession?(child: ChildSessionInfo): Promise<void>;
}

/** Why a model call was made; every call of a run is one of these. */
export type ModelCallPurpose = 'turn' | 'compaction' | 'summary' | 'other';

/** One model call, as the loop reports it to {@link SessionStore.recordUsage}. */
export interface ModelCallRecord {
  /** The session the call belongs to (a sub-agent's own child session when it has one). */
  sessionId: string;
  provider: string;
  model: string;
  /** The agent definition's name, when the run has one. */
  agent?: string;
  /** The sub-agent's id, when a sub-agent made the call. */
  subAgent?: string;
  purpose: ModelCallPurpose;
  usage: Usage;
  /** USD; undefined when the model has no price. */
  costUsd?: number;
  /** Epoch milliseconds. */
  createdAt?: number;
}

/** The child session of a sub-agent, linked to the session of the run that started it. */
export interface ChildSessionInfo {
  sessionId: string;
  parentSessionId: string;
  /** The sub-agent's agent type or definition name. */
  agent?: string;
  /** A short title (the sub-agent's description). */
  title?: string;
}

/** An in-memory {@link SessionStore} for tests and short-lived hosts. */
export interface MemorySessionStore extends SessionStore {
  /** Session ids with at least one entry. */
  sessions(): string[];
  recordUsage(record: ModelCallRecord): Promise<void>;
  createChildSession(child: ChildSessionInfo): Promise<void>;
  /** Every model call recorded, in order (copies). */
  usageRecords(): ModelCallRecord[];
  /** Every child session created, in order (copies). */
  childSessions(): ChildSessionInfo[];
}

/**
 * Creates an in-memory session store. Appended entries and their messages are kept by reference
 * (the loop never changes one once appended; do not change yours either) and copied out by `load`,
 * so what a caller loads cannot change what is stored.
 *
 * @example
 * const store = createMemorySessionStore();
 * await runQuery({ ..., session: { store, sessionId: 'demo' } });
 */
export function createMemorySessionStore(): MemorySessionStore {
  return new MemoryStore();
}

/**
 * The store behind {@link createMemorySessionStore}: methods on the prototype (not seven closures
 * per store) and the child-session map made only when a child session is, since a host often keeps
 * one store per run and its size counts in every run's heap.
 */
/** One session's entries in a {@link MemoryStore}. */
interface SessionList {
  entries: SessionEntry[];
  times: number[];
}

class MemoryStore implements MemorySessionStore {
  // Per session: the entries as appended (by reference) and, beside them, when each was appended
  // (a packed array of numbers, not a copy of every entry). The first session is kept in fields and
  // the map made for a second one: a store per run mostly holds one session (a map is about 0.2 KiB).
  private firstId: string | undefined;
  private firstList: SessionList | undefined;
  private others: Map<string, SessionList> | undefined;
  private readonly usage: ModelCallRecord[] = [];
  private children: Map<string, ChildSessionInfo> | undefined;

  private listOf(sessionId: string): SessionList | undefined {
    return sessionId === this.firstId ? this.firstList : this.others?.get(sessionId);
  }

  async append(sessionId: string, entries: readonly SessionEntry[]): Promise<void> {
    let list = this.listOf(sessionId);
    if (list === undefined) {
      list = { entries: [], times: [] };
      if (this.firstId === undefined) {
        this.firstId = sessionId;
        this.firstList = list;
      } else {
        this.others ??= new Map();
        this.others.set(sessionId, list);
      }
    }
    const now = Date.now();
    // An index loop: the loop appends twice a turn, and an iterator per call is measurable there.
    for (let index = 0; index < entries.length; index++) {
      list.entries.push(entries[index] as SessionEntry);
      list.times.push(now);
    }
  }

  async load(sessionId: string): Promise<SessionEntry[]> {
    const list = this.listOf(sessionId);
    if (list === undefined) return [];
    // An entry's own createdAt wins over the time it was appended, as when entries were copied in.
    const { entries, times } = list;
    return structuredClone(entries.map((entry, index) => ({ createdAt: times[index], ...entry })));
  }

  sessions(): string[] {
    if (this.firstId === undefined) return [];
    return this.others === undefined ? [this.firstId] : [this.firstId, ...this.others.keys()];
  }

  async recordUsage(record: ModelCallRecord): Promise<void> {
    // Kept by reference like messages (the loop makes a fresh record per call); `usageRecords` copies out.
    if (record.createdAt === undefined) record.createdAt = Date.now();
    this.usage.push(record);
  }

  async createChildSession(child: ChildSessionInfo): Promise<void> {
    this.children ??= new Map();
    if (this.children.has(child.sessionId)) {
      throw new Error(
        `Child session "${child.sessionId}" exists already: give each sub-agent a session id of its own.`,
      );
    }
    this.children.set(child.sessionId, { ...child });
  }

  usageRecords(): ModelCallRecord[] {
    return structuredClone(this.usage);
  }

  childSessions(): ChildSessionInfo[] {
    return this.children === undefined ? [] : [...this.children.values()].map((child) => ({ ...child }));
  }
}
