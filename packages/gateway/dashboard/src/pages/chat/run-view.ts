import type { RunQuestion, RunStatusJson } from '../../../../src/http/api-types/index.js';

/**
 * The live view of one run, folded from its events (pure, so a page reload can keep it in
 * sessionStorage and go on from the last event id without losing or repeating text).
 */

export interface TextItem {
  kind: 'text';
  turn: number;
  text: string;
}
export interface ThinkingItem {
  kind: 'thinking';
  turn: number;
  text: string;
}
export interface ToolItem {
  kind: 'tool';
  toolCallId: string;
  name: string;
  input: unknown;
  state: 'running' | 'done' | 'error';
  result?: string;
  durationMs?: number;
  /** Sub-agent events seen for this call (a rough progress count for `agent` calls). */
  subAgentEvents: number;
}
export interface UserItem {
  kind: 'user';
  text: string;
}
export interface StatusItem {
  kind: 'status';
  text: string;
}
export type RunItem = TextItem | ThinkingItem | ToolItem | UserItem | StatusItem;

/** Tokens and cost of one model call (a `usage` event). */
export interface CallUsage {
  /** The usage event's id (unique in the run). */
  key: string;
  turn: number;
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | undefined;
}

export interface RunView {
  runId: string;
  status: RunStatusJson;
  items: RunItem[];
  calls: CallUsage[];
  /** Open questions (permission asks, `ask_user_question`), oldest first. */
  questions: RunQuestion[];
  reason?: string;
  error?: string;
  costUsd?: number;
  /** The id of the last event folded in (sent back as `Last-Event-ID`). */
  lastEventId?: string;
}

export function emptyRunView(runId: string, status: RunStatusJson, prompt: string | undefined): RunView {
  return {
    runId,
    status,
    items: prompt === undefined ? [] : [{ kind: 'user', text: prompt }],
    calls: [],
    questions: [],
  };
}

/** The text of a user message's content (a string, or its text blocks). */
export function userText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => (block !== null && typeof block === 'object' && 'text' in block ? String(block.text) : ''))
    .filter((text) => text !== '')
    .join('\n');
}

function toolResultText(result: unknown): string {
  if (result === null || typeof result !== 'object') return String(result ?? '');
  const content = (result as { content?: unknown }).content;
  if (!Array.isArray(content)) return JSON.stringify(result);
  return content
    .map((part) =>
      part !== null && typeof part === 'object' && (part as { type?: unknown }).type === 'text'
        ? String((part as { text?: unknown }).text ?? '')
        : '[image]',
    )
    .join('\n');
}

function appendText(items: RunItem[], kind: 'text' | 'thinking', turn: number, delta: string): RunItem[] {
  const last = items.at(-1);
  if (last !== undefined && last.kind === kind && last.turn === turn) {
    return [...items.slice(0, -1), { ...last, text: last.text + delta }];
  }
  return [...items, { kind, turn, text: delta }];
}

function updateTool(items: RunItem[], toolCallId: string, change: (item: ToolItem) => ToolItem): RunItem[] {
  return items.map((item) => (item.kind === 'tool' && item.toolCallId === toolCallId ? change(item) : item));
}

type Data = Record<string, unknown>;

/** Folds one event of the run's stream into the view. Unknown events only move the cursor. */
export function applyRunEvent(view: RunView, type: string, data: Data, id: string | undefined): RunView {
  // The gateway numbers a run's events 1, 2, 3...: one already folded in (a replay after a reconnect
  // that raced the saved cursor, a second subscription) must not add its text or card twice.
  if (id !== undefined && view.lastEventId !== undefined && Number(id) <= Number(view.lastEventId)) return view;
  const next = id === undefined ? view : { ...view, lastEventId: id };
  switch (type) {
    case 'run-started':
    case 'run-resumed':
      return { ...next, status: 'running' };
    case 'text-delta':
      return { ...next, items: appendText(next.items, 'text', Number(data.turn), String(data.delta ?? '')) };
    case 'thinking-delta':
      return { ...next, items: appendText(next.items, 'thinking', Number(data.turn), String(data.delta ?? '')) };
    case 'tool-start':
      return {
        ...next,
        items: [
          ...next.items,
          {
            kind: 'tool',
            toolCallId: String(data.toolCallId),
            name: String(data.name),
            input: data.input,
            state: 'running',
            subAgentEvents: 0,
          },
        ],
      };
    case 'tool-end': {
      const result = data.result as { isError?: boolean } | undefined;
      return {
        ...next,
        items: updateTool(next.items, String(data.toolCallId), (item) => ({
          ...item,
          state: result?.isError === true ? 'error' : 'done',
          result: toolResultText(result),
          ...(typeof data.durationMs === 'number' ? { durationMs: data.durationMs } : {}),
        })),
      };
    }
    case 'sub-agent':
      return {
        ...next,
        items: updateTool(next.items, String(data.parentToolCallId), (item) => ({
          ...item,
          subAgentEvents: item.subAgentEvents + 1,
        })),
      };
    case 'message-injected':
      return { ...next, items: [...next.items, { kind: 'user', text: userText((data.message as Data)?.content) }] };
    case 'status':
      return { ...next, items: [...next.items, { kind: 'status', text: String(data.message ?? data.kind) }] };
    case 'usage': {
      const usage = data.usage as { input?: { total?: number }; output?: { total?: number } } | undefined;
      return {
        ...next,
        calls: [
          ...next.calls,
          {
            key: id ?? `call-${next.calls.length}`,
            turn: Number(data.turn),
            model: String(data.model ?? ''),
            inputTokens: usage?.input?.total ?? 0,
            outputTokens: usage?.output?.total ?? 0,
            costUsd: typeof data.costUsd === 'number' ? data.costUsd : undefined,
          },
        ],
      };
    }
    case 'question': {
      const question = data as unknown as RunQuestion;
      const others = next.questions.filter((open) => open.questionId !== question.questionId);
      return { ...next, questions: [...others, question] };
    }
    case 'question-answered':
      return { ...next, questions: next.questions.filter((question) => question.questionId !== data.questionId) };
    case 'run-end':
      return {
        ...next,
        status: (data.status as RunStatusJson | undefined) ?? 'completed',
        questions: [],
        items: next.items.map((item) =>
          item.kind === 'tool' && item.state === 'running' ? { ...item, state: 'error' } : item,
        ),
        ...(typeof data.reason === 'string' ? { reason: data.reason } : {}),
        ...(typeof data.error === 'string' ? { error: data.error } : {}),
        ...(typeof data.costUsd === 'number' ? { costUsd: data.costUsd } : {}),
      };
    default:
      return next;
  }
}

/** Tokens and cost of the run so far, summed over its model calls. */
export function runTotals(view: RunView): { inputTokens: number; outputTokens: number; costUsd: number | undefined } {
  let inputTokens = 0;
  let outputTokens = 0;
  let costUsd: number | undefined = 0;
  for (const call of view.calls) {
    inputTokens += call.inputTokens;
    outputTokens += call.outputTokens;
    costUsd = costUsd === undefined || call.costUsd === undefined ? undefined : costUsd + call.costUsd;
  }
  return { inputTokens, outputTokens, costUsd: view.costUsd ?? costUsd };
}

const STORE_PREFIX = 'boxagnts.run.';

/** Keeps the view (with its last event id) for this tab, so a reload resumes where the stream was. */
export function saveRunView(view: RunView): void {
  try {
    sessionStorage.setItem(STORE_PREFIX + view.runId, JSON.stringify(view));
  } catch {
    // Storage full or disabled: a reload then replays the run from its first event.
  }
}

export function loadRunView(runId: string): RunView | undefined {
  try {
    const text = sessionStorage.getItem(STORE_PREFIX + runId);
    return text === null ? undefined : (JSON.parse(text) as RunView);
  } catch {
    return undefined;
  }
}

export function forgetRunView(runId: string): void {
  try {
    sessionStorage.removeItem(STORE_PREFIX + runId);
  } catch {
    // Nothing kept.
  }
}
