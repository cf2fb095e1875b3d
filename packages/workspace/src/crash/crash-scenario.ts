import type { Message } from '@boxagnts/api';
import type { QueryConfig } from '@boxagnts/query';

/**
 * Where the crash child is killed: after the user message is stored, while the answer streams,
 * while a tool call runs (between the call and its result), or while the history is compacted.
 */
export type CrashStage = 'user-stored' | 'streaming' | 'tool-started' | 'compacting';

/** What the parent tells the crash child (JSON in `argv[2]`). */
export interface CrashChildConfig {
  /** The SQLite file of the store. */
  databasePath: string;
  /** The mock LLM server (Anthropic protocol). */
  mockUrl: string;
  sessionId: string;
  stage: CrashStage;
}

/** The model name every crash run asks for (the mock answers any name). */
export const CRASH_MODEL = 'claude-sonnet-4-6';

/** The name of the tool whose execution blocks until the child is killed. */
export const BLOCKING_TOOL_NAME = 'run_migration';

/** The text the mock answers with on the request after the crash. */
export const RECOVERED_TEXT = 'Recovered: the migration state is checked and the work goes on.';

/** What the crash child prints: `STAGE <stage>` when it reaches a stage, `ACK <seq> <digest>` per stored entry. */
export function stageLine(stage: CrashStage): string {
  return `STAGE ${stage}`;
}

/** The conversation the child starts with: one user message, or a history big enough to compact. */
export function crashHistory(stage: CrashStage): Message[] {
  const request: Message = {
    role: 'user',
    content: 'Run the database migration "add-index" and tell me when it is done.',
  };
  if (stage !== 'compacting') return [request];
  const history: Message[] = [
    { role: 'user', content: 'Migrate every table of the billing database; never drop data.' },
  ];
  for (let index = 0; index < 4; index++) {
    history.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `Migrating table ${index}: ${'w'.repeat(3000)}` },
        { type: 'tool_use', id: `toolu_history_${index}`, name: BLOCKING_TOOL_NAME, input: { name: `table-${index}` } },
      ],
    });
    history.push({
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: `toolu_history_${index}`, content: `migrated ${'z'.repeat(4000)}` }],
    });
  }
  history.push({ role: 'user', content: 'continue' });
  return history;
}

/**
 * The run's configuration: the compaction stage has a context window so small that the history
 * above must be compacted before the first call.
 */
export function crashQueryConfig(stage: CrashStage): QueryConfig {
  const base: QueryConfig = { model: CRASH_MODEL, date: '2026-11-30', maxTurns: 6 };
  if (stage !== 'compacting') return base;
  return { ...base, contextWindow: 5000, compaction: { keepRecentTurns: 1 } };
}
