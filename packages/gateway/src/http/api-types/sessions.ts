/** A session's row, as `GET /sessions` and `GET /sessions/:id` send it. */
export interface SessionJson {
  id: string;
  title: string;
  agent?: string;
  model?: string;
  /** `session`, `fork` (made by `POST /sessions/:id/fork`) or `sub-agent` (a sub-agent's transcript). */
  kind: 'session' | 'fork' | 'sub-agent';
  /** The session this one was forked from, or whose run started this sub-agent. */
  parentSessionId?: string;
  forkedAtSeq?: number;
  createdAt: number;
  updatedAt: number;
  messageCount: number;
}

/** One block of a stored message (the gateway's message format; unknown block types are kept as they are). */
export type ContentBlockJson =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | {
      type: 'tool_result';
      toolUseId: string;
      content: string | Array<{ type: 'text'; text: string } | { type: 'image'; source: unknown }>;
      isError?: boolean;
    }
  | { type: 'image'; source: unknown }
  | { type: 'document'; source: unknown; title?: string }
  | { type: string; [field: string]: unknown };

/** One stored message with its 1-based position `seq`. */
export interface StoredMessageJson {
  sessionId: string;
  seq: number;
  message: { role: 'system' | 'user' | 'assistant'; content: string | ContentBlockJson[] };
  model?: string;
  usage?: Record<string, number | undefined>;
  createdAt?: number;
  compaction?: { keptMessages: number };
}

/** `GET /sessions`. */
export interface SessionListJson {
  sessions: SessionJson[];
}

/** `GET /sessions/:id`: the row, the transcript, its forks and sub-agent sessions, and which tool call started each sub-agent. */
export interface SessionDetailJson {
  session: SessionJson;
  messages: StoredMessageJson[];
  /** Forks and sub-agent sessions of this session, most recently updated first. */
  children: SessionJson[];
  /** Tool-call id of an `agent` call -> the id of the sub-agent session it started. */
  subAgentSessions: Record<string, string>;
}

/** One `GET /sessions/search` hit; `snippet` marks the match with `[` `]`-style markers of the store. */
export interface SessionSearchHitJson {
  sessionId: string;
  seq: number;
  role: 'system' | 'user' | 'assistant';
  snippet: string;
}

/** `GET /sessions/search`. */
export interface SessionSearchJson {
  hits: SessionSearchHitJson[];
}

/** `POST /sessions/:id/fork` body: fork at a message position (`atSeq`) or at a message of this session named by `atSeq`. */
export interface ForkSessionBody {
  atSeq: number;
  title?: string;
}
