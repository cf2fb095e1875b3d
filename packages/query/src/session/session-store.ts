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
 * Marks, in a column of cells, that the next cell is an entry or record kept as it was given (one
 * with fields the columns do not hold, or values they cannot tell apart from their own defaults).
 */
const WHOLE = Symbol('kept whole');

/**
 * One session's entries in a {@link MemoryStore}, column-wise: the loop's `{ message }` and
 * `{ message, model, usage }` entries become garbage once appended (no wrapper object per entry).
 * `cells` holds each entry's message, followed by its model (a string: never a message) and usage
 * when it has them, or {@link WHOLE} and the entry itself for any other entry; `times` holds when
 * each entry was appended, as a packed array of doubles (no boxed number per entry).
 */
interface SessionColumns {
  cells: unknown[];
  times: number[];
}

/** The shared fields of usage records, kept once while consecutive records agree on them. */
interface RecordLabel {
  sessionId: string;
  provider: string;
  model: string;
  purpose: ModelCallPurpose;
  agent: string | undefined;
  subAgent: string | undefined;
}

const ENTRY_KEYS = ['message', 'model', 'usage'];

/** Which of the loop's entry shapes `entry` is: 1 `{ message }`, 2 `{ message, model, usage }`, 0 another. */
function entryShape(entry: SessionEntry): 0 | 1 | 2 {
  if (entry.message === null || typeof entry.message !== 'object') return 0;
  // The keys in the loop's order, so that `load` rebuilds them in the order they came.
  let keys = 0;
  for (const key in entry) {
    if (key !== ENTRY_KEYS[keys]) return 0;
    keys++;
  }
  if (keys === 1) return 1;
  return keys === 3 && typeof entry.model === 'string' && entry.usage !== null && typeof entry.usage === 'object'
    ? 2
    : 0;
}

/** The record fields the columns hold, in the order the loop writes them (`chargeCall`). */
const RECORD_KEYS = ['sessionId', 'provider', 'model', 'purpose', 'usage', 'createdAt', 'costUsd', 'agent', 'subAgent'];

/**
 * Whether `record` can be kept in the columns and rebuilt equal, keys in the same order: its keys
 * are the loop's, in the loop's order, strings are strings, the numbers are numbers (not NaN, which
 * marks an absent cost).
 */
function columnRecord(record: ModelCallRecord): boolean {
  let next = 0;
  for (const key in record) {
    const at = RECORD_KEYS.indexOf(key, next);
    if (at === -1 || (record as unknown as Record<string, unknown>)[key] === undefined) return false;
    next = at + 1;
  }
  return (
    typeof record.sessionId === 'string' &&
    typeof record.provider === 'string' &&
    typeof record.model === 'string' &&
    typeof record.purpose === 'string' &&
    record.usage !== null &&
    typeof record.usage === 'object' &&
    typeof record.createdAt === 'number' &&
    (record.costUsd === undefined || (typeof record.costUsd === 'number' && !Number.isNaN(record.costUsd))) &&
    (record.agent === undefined || typeof record.agent === 'string') &&
    (record.subAgent === undefined || typeof record.subAgent === 'string')
  );
}

/**
 * The store behind {@link createMemorySessionStore}: methods on the prototype (not seven closures
 * per store), the child-session map made only when a child session is, and entries and usage
 * records kept column-wise, since a host often keeps one store per run and its size counts in
 * every in-flight run's heap. What `load` and `usageRecords` return is rebuilt from the columns,
 * equal to what was appended and recorded.
 */
class MemoryStore implements MemorySessionStore {
  // The first session is kept in fields and the map made for a second one: a store per run mostly
  // holds one session (a map is about 0.2 KiB).
  private firstId: string | undefined;
  private firstList: SessionColumns | undefined;
  private others: Map<string, SessionColumns> | undefined;
  // Usage records, one slot each in four columns: a label (shared while the same) and the usage,
  // or WHOLE and the record; createdAt and costUsd (NaN: none) as packed doubles. Four arrays, not
  // two of twice the length: V8 gives a short array 17 slots, then 41.
  private readonly usageLabels: Array<RecordLabel | typeof WHOLE> = [];
  private readonly usages: unknown[] = [];
  private readonly usageTimes: number[] = [];
  private readonly usageCosts: number[] = [];
  private lastLabel: RecordLabel | undefined;
  private children: Map<string, ChildSessionInfo> | undefined;

  private listOf(sessionId: string): SessionColumns | undefined {
    return sessionId === this.firstId ? this.firstList : this.others?.get(sessionId);
  }

  async append(sessionId: string, entries: readonly SessionEntry[]): Promise<void> {
    let list = this.listOf(sessionId);
    if (list === undefined) {
      list = { cells: [], times: [] };
      if (this.firstId === undefined) {
        this.firstId = sessionId;
        this.firstList = list;
      } else {
        this.others ??= new Map();
        this.others.set(sessionId, list);
      }
    }
    const now = Date.now();
    const { cells, times } = list;
    // An index loop: the loop appends twice a turn, and an iterator per call is measurable there.
    for (let index = 0; index < entries.length; index++) {
      const entry = entries[index] as SessionEntry;
      switch (entryShape(entry)) {
        case 1:
          cells.push(entry.message);
          break;
        case 2:
          cells.push(entry.message, entry.model, entry.usage);
          break;
        default:
          cells.push(WHOLE, entry);
      }
      times.push(now);
    }
  }

  async load(sessionId: string): Promise<SessionEntry[]> {
    const list = this.listOf(sessionId);
    if (list === undefined) return [];
    const { cells, times } = list;
    const entries: SessionEntry[] = new Array(times.length);
    let cell = 0;
    for (let index = 0; index < times.length; index++) {
      const first = cells[cell++];
      if (first === WHOLE) {
        // An entry's own createdAt wins over the time it was appended.
        entries[index] = { createdAt: times[index], ...(cells[cell++] as SessionEntry) };
      } else if (typeof cells[cell] === 'string') {
        entries[index] = {
          createdAt: times[index] as number,
          message: first as Message,
          model: cells[cell] as string,
          usage: cells[cell + 1] as Usage,
        };
        cell += 2;
      } else {
        entries[index] = { createdAt: times[index] as number, message: first as Message };
      }
    }
    return structuredClone(entries);
  }

  sessions(): string[] {
    if (this.firstId === undefined) return [];
    return this.others === undefined ? [this.firstId] : [this.firstId, ...this.others.keys()];
  }

  async recordUsage(record: ModelCallRecord): Promise<void> {
    if (record.createdAt === undefined) record.createdAt = Date.now();
    if (!columnRecord(record)) {
      this.usageLabels.push(WHOLE);
      this.usages.push(record);
      this.usageTimes.push(Number.NaN);
      this.usageCosts.push(Number.NaN);
      return;
    }
    let label = this.lastLabel;
    if (
      label === undefined ||
      label.sessionId !== record.sessionId ||
      label.provider !== record.provider ||
      label.model !== record.model ||
      label.purpose !== record.purpose ||
      label.agent !== record.agent ||
      label.subAgent !== record.subAgent
    ) {
      label = {
        sessionId: record.sessionId,
        provider: record.provider,
        model: record.model,
        purpose: record.purpose,
        agent: record.agent,
        subAgent: record.subAgent,
      };
      this.lastLabel = label;
    }
    this.usageLabels.push(label);
    this.usages.push(record.usage);
    this.usageTimes.push(record.createdAt as number);
    this.usageCosts.push(record.costUsd ?? Number.NaN);
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
    const { usageLabels, usages } = this;
    const records: ModelCallRecord[] = new Array(usageLabels.length);
    for (let index = 0; index < records.length; index++) {
      const label = usageLabels[index] as RecordLabel | typeof WHOLE;
      if (label === WHOLE) {
        records[index] = usages[index] as ModelCallRecord;
        continue;
      }
      const costUsd = this.usageCosts[index] as number;
      // The loop's key order: the cost after createdAt, agent and subAgent last.
      const record: ModelCallRecord = {
        sessionId: label.sessionId,
        provider: label.provider,
        model: label.model,
        purpose: label.purpose,
        usage: usages[index] as Usage,
        createdAt: this.usageTimes[index] as number,
      };
      if (!Number.isNaN(costUsd)) record.costUsd = costUsd;
      if (label.agent !== undefined) record.agent = label.agent;
      if (label.subAgent !== undefined) record.subAgent = label.subAgent;
      records[index] = record;
    }
    return structuredClone(records);
  }

  childSessions(): ChildSessionInfo[] {
    return this.children === undefined ? [] : [...this.children.values()].map((child) => ({ ...child }));
  }
}
