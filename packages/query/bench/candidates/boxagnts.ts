import { assembleMessage, type LlmProvider, type LlmRequest, type StreamEvent, type Usage } from '@boxagnts/api';
import { defineTool, textResult } from '@boxagnts/tools';
import { z } from 'zod';
import type { QueryEvent, QueryOptions, QueryOutcome, SessionStore } from '../../src/index.js';
import { createMemorySessionStore, runQuery, runQueryToEnd } from '../../src/index.js';
import type { Candidate, PreparedTask } from '../candidate.js';
import {
  ANSWER,
  CALL_ID,
  echo,
  holdAt,
  INPUT_TOKENS,
  MODEL_ID,
  OUTPUT_TOKENS,
  PROVIDER_ID,
  STEP_ARGUMENTS,
  stepText,
  type Task,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  USER_PROMPT,
} from '../script.js';

const USAGE: Usage = {
  input: { total: INPUT_TOKENS, noCache: INPUT_TOKENS, cacheRead: 0, cacheWrite: 0 },
  output: { total: OUTPUT_TOKENS, text: OUTPUT_TOKENS, reasoning: 0 },
};
const BLOCK = 'b0';

/** The events of tool turn `turn` before and after its `tool-call-end` (built once, shared). */
function toolTurnEvents(turn: number): { head: StreamEvent[]; tail: StreamEvent[] } {
  return {
    head: [
      { type: 'message-start', id: `msg_${turn}`, model: MODEL_ID },
      { type: 'tool-call-start', blockId: BLOCK, toolCallId: CALL_ID[turn] as string, toolName: TOOL_NAME },
      { type: 'tool-call-input-delta', blockId: BLOCK, delta: STEP_ARGUMENTS[turn] as string },
    ],
    tail: [
      { type: 'usage', usage: USAGE },
      { type: 'message-end', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: USAGE },
    ],
  };
}

const ANSWER_EVENTS: readonly StreamEvent[] = [
  { type: 'message-start', id: 'msg_answer', model: MODEL_ID },
  { type: 'text-start', blockId: BLOCK },
  { type: 'text-delta', blockId: BLOCK, delta: ANSWER },
  { type: 'text-end', blockId: BLOCK },
  { type: 'usage', usage: USAGE },
  { type: 'message-end', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: USAGE },
];

/**
 * An in-process {@link LlmProvider} that answers at once: tool turns (one `echo` call each) until
 * `task.toolTurns` calls are in the history, then the answer. Events are pre-built; only the
 * parsed tool input is a fresh object per call, as a real adapter's would be.
 */
export function scriptedProvider(task: Task): LlmProvider {
  const turns = Array.from({ length: task.toolTurns }, (_, turn) => toolTurnEvents(turn));
  async function* streamMessage(request: LlmRequest): AsyncGenerator<StreamEvent> {
    // History: the user message, then an assistant message and its tool results per turn.
    const turn = (request.messages.length - 1) >> 1;
    const waiting = holdAt(task.hold, turn);
    if (waiting !== undefined) await waiting;
    const events = turns[turn];
    if (events === undefined) {
      for (const event of ANSWER_EVENTS) yield event;
      return;
    }
    for (const event of events.head) yield event;
    yield {
      type: 'tool-call-end',
      blockId: BLOCK,
      toolCallId: CALL_ID[turn] as string,
      toolName: TOOL_NAME,
      input: { text: stepText(turn) },
    };
    for (const event of events.tail) yield event;
  }
  return {
    id: PROVIDER_ID,
    name: 'Scripted (bench)',
    streamMessage,
    createMessage: (request) => assembleMessage(streamMessage(request)),
    listModels: async () => [],
  };
}

/** The `echo` tool as @boxagnts/tools defines it (zod schema, read-only). */
export const echoTool = defineTool({
  name: TOOL_NAME,
  description: TOOL_DESCRIPTION,
  inputSchema: z.object({ text: z.string() }),
  permission: 'read-only',
  execute: async ({ text }) => textResult(echo(text)),
});

/** What a candidate of the loop needs from a build of @boxagnts/query (this one, or an older one bundled beside). */
export interface LoopLibrary {
  runQueryToEnd(options: QueryOptions, onEvent?: (event: QueryEvent) => void): Promise<QueryOutcome>;
  runQuery(options: QueryOptions): AsyncGenerator<QueryEvent, QueryOutcome>;
  createMemorySessionStore(): SessionStore;
  /** The `echo` tool, defined with that build's @boxagnts/tools. */
  echoTool: NonNullable<QueryOptions['tools']>[number];
}

const THIS_LIBRARY: LoopLibrary = { runQueryToEnd, runQuery, createMemorySessionStore, echoTool };

/**
 * @boxagnts/query's `runQueryToEnd` on the scripted provider. `allOn` switches on every mechanism
 * the goal is stated for: a session store, a USD budget, a caller's `AbortSignal` (a controller per
 * run, as a caller with a stop button per request has), compaction, the tool-result budget, loop
 * detection, the catalogue's cost lookup (the model is priced there), every event consumed.
 * Without it the run has the defaults only (no store, no budget, no signal). `iterate`: the events
 * are consumed from `runQuery` with `for await` instead of `runQueryToEnd`'s callback.
 */
export function boxagntsCandidate(
  allOn: boolean,
  iterate = false,
  library: LoopLibrary = THIS_LIBRARY,
  id = `boxagnts${allOn ? '' : ':bare'}${iterate ? ':for-await' : ''}`,
): Candidate {
  const lib = library;
  return {
    id,
    kind: 'ours',
    description: `${
      allOn
        ? '@boxagnts/query: memory session store, budgetUsd, a caller AbortSignal, compaction, tool-result budget, loop detection, catalogue cost, events counted'
        : '@boxagnts/query with defaults only (no session store, no budget, no signal), events counted'
    }${iterate ? '; runQuery consumed with for await' : '; runQueryToEnd'}`,
    prepare(task: Task): PreparedTask {
      const provider = scriptedProvider(task);
      const maxTurns = task.toolTurns + 2;
      let sessions = 0;
      return {
        async run() {
          let events = 0;
          const sessionId = `bench-${++sessions}`;
          const options: QueryOptions = allOn
            ? {
                provider,
                messages: [{ role: 'user', content: USER_PROMPT }],
                tools: [lib.echoTool],
                toolContext: { root: process.cwd(), sessionId },
                session: { store: lib.createMemorySessionStore(), sessionId },
                signal: new AbortController().signal,
                config: {
                  model: MODEL_ID,
                  maxTurns,
                  budgetUsd: 1000,
                  toolResultBudgetChars: 50_000,
                  compaction: { enabled: true },
                  tools: { loopThreshold: 3 },
                  date: '2026-01-01',
                },
              }
            : {
                provider,
                messages: [{ role: 'user', content: USER_PROMPT }],
                tools: [lib.echoTool],
                toolContext: { root: process.cwd(), sessionId },
                config: { model: MODEL_ID, maxTurns },
              };
          let outcome: QueryOutcome | undefined;
          if (iterate) {
            for await (const event of lib.runQuery(options)) {
              events++;
              if (event.type === 'done') outcome = event.outcome;
            }
          } else {
            outcome = await lib.runQueryToEnd(options, () => {
              events++;
            });
          }
          if (outcome === undefined) throw new Error('run ended without a done event');
          if (outcome.reason !== 'end_turn') throw new Error(`run ended with ${outcome.reason}`);
          if (allOn && outcome.usage.total.unpricedCalls > 0) {
            throw new Error(`${outcome.usage.total.unpricedCalls} calls were not priced: the catalogue lookup failed`);
          }
          return { turns: outcome.turns, text: outcome.text, events, history: outcome.messages };
        },
      };
    },
  };
}
