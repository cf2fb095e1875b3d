/** What the append child does: append `count` entries to each session, round robin, or append forever. */
export interface AppendChildConfig {
  databasePath: string;
  /** Names this writer in the stored text, so the parent can tell the writers' entries apart. */
  writer: string;
  plan: Array<{ sessionId: string; count: number }>;
  /**
   * `plan`: append the plan and report; `burst`: append to the first session until killed;
   * `run-records`: announce sub-agent sessions of the first session and record usage until killed.
   */
  mode: 'plan' | 'burst' | 'run-records';
  /** The store's SQLite busy timeout; default the store's own. 0 shows what the store protects against. */
  busyTimeoutMs?: number;
}

/** What the append child reports at the end of a plan. */
export interface AppendChildResult {
  /** Entries appended per session. */
  appended: Record<string, number>;
  /** Every failed append, as `<reason> <code> <message>`. */
  errors: string[];
  /** Epoch ms when the first append started and the last one ended, to show the writers overlapped. */
  startedAt: number;
  finishedAt: number;
}

/** The text of the `index`-th entry a writer appends to a session. */
export function appendedText(writer: string, sessionId: string, index: number): string {
  return `${writer} wrote entry ${index} of ${sessionId}`;
}
