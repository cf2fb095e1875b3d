import { findModel, type LlmRequest, type Message, type ToolUseBlock, type Usage } from '@boxagnts/api';
import { executeTool, type ToolContext, toToolDefinition } from '@boxagnts/tools';
import { median } from '../../../scripts/bench-kit/stats.js';
import {
  buildSystemPrompt,
  callCost,
  createMemorySessionStore,
  LoopDetector,
  runToolCalls,
  type SessionEntry,
} from '../src/index.js';
import { TurnStream } from '../src/stream-turn.js';
import { echoTool, scriptedProvider } from './candidates/boxagnts.js';
import { MODEL_ID, PROVIDER_ID, STEP_ARGUMENTS, TASK_TOOL_TURNS, TOOL_NAME, USER_PROMPT } from './script.js';

/** One part of a run, timed alone. */
interface Part {
  name: string;
  /** How often a run of the 10-tool-turn task with every mechanism on does it. */
  perRun: number;
  op(): Promise<unknown> | unknown;
  /** Ops per call of `op` when it does several (default 1). */
  scale?: number;
}

const TURNS = TASK_TOOL_TURNS + 1;
const USAGE: Usage = {
  input: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  output: { total: 20, text: 20, reasoning: 0 },
};

function parts(): Part[] {
  const provider = scriptedProvider({ toolTurns: TASK_TOOL_TURNS });
  const request: LlmRequest = { model: MODEL_ID, system: [], messages: [{ role: 'user', content: USER_PROMPT }] };
  const signal = new AbortController().signal;
  const context: ToolContext = { root: process.cwd(), sessionId: 's', signal, turnId: 'turn-1', toolCallId: '' };
  const call: ToolUseBlock = { type: 'tool_use', id: 'call_1', name: TOOL_NAME, input: { text: 'step 1' } };
  const assistant: Message = { role: 'assistant', content: [call] };
  const results: Message = { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_1', content: 'step 1' }] };
  const entries: SessionEntry[][] = [[{ message: assistant, model: MODEL_ID, usage: USAGE }], [{ message: results }]];
  let store = createMemorySessionStore();
  let appends = 0;
  const tools = new Map([[TOOL_NAME, echoTool]]);
  const detector = new LoopDetector(3);
  let step = 0;
  return [
    {
      name: 'memory session store: append one entry',
      perRun: 2 * TASK_TOOL_TURNS + 2,
      op: () => {
        if (++appends % 22 === 0) store = createMemorySessionStore();
        return store.append('s', entries[appends % 2] as SessionEntry[]);
      },
    },
    {
      name: 'catalogue cost: callCost (computeCost, findModel)',
      perRun: TURNS,
      op: () => callCost(MODEL_ID, PROVIDER_ID, USAGE, undefined),
    },
    { name: 'context window: findModel', perRun: 1, op: () => findModel(MODEL_ID, { provider: PROVIDER_ID }) },
    { name: 'tool definitions: toToolDefinition (z.toJSONSchema)', perRun: 1, op: () => toToolDefinition(echoTool) },
    {
      name: 'system prompt: buildSystemPrompt',
      perRun: 1,
      op: () => buildSystemPrompt({ toolNames: [TOOL_NAME], workingDirectory: process.cwd(), date: '2026-01-01' }),
    },
    // The everything-on run's caller makes one per run (its stop button).
    {
      name: 'AbortController + signal (the caller of a cancellable run)',
      perRun: 1,
      op: () => new AbortController().signal,
    },
    {
      name: 'executeTool (bounds, zod, AbortController, 120 s timer, race)',
      perRun: TASK_TOOL_TURNS,
      op: () => executeTool(echoTool, { text: 'step 1' }, context, { timeoutMs: 120_000 }),
    },
    {
      name: 'runToolCalls of one call (executeTool included, loop detector)',
      perRun: TASK_TOOL_TURNS,
      op: () =>
        runToolCalls([{ ...call, input: { text: `step ${++step % 1000}` } }], {
          tools,
          context,
          turn: 1,
          maxConcurrency: 8,
          timeoutMs: 120_000,
          emit: () => undefined,
          annotate: (toolCall, result) => detector.check(toolCall, result).result,
        }),
    },
    {
      name: 'scripted provider alone: iterate one tool turn',
      perRun: TURNS,
      op: async () => {
        for await (const _event of provider.streamMessage(request)) {
          // consumed
        }
      },
    },
    {
      name: 'one tool turn read into a TurnStream (provider, MessageAssembler)',
      perRun: TURNS,
      op: async () => {
        const stream = new TurnStream(1, provider.id);
        for await (const event of provider.streamMessage(request, { signal })) {
          stream.push(event);
          if (stream.done) break;
        }
        return stream.result();
      },
    },
    {
      name: 'setTimeout + clearTimeout (executeTool per call)',
      perRun: TASK_TOOL_TURNS,
      op: () => clearTimeout(setTimeout(noop, 120_000)),
    },
    {
      name: 'zod safeParse of the input (executeTool per call)',
      perRun: TASK_TOOL_TURNS,
      op: () => echoTool.inputSchema.safeParse({ text: 'step 1' }),
    },
    {
      name: 'one event through yield* and await next() (per event)',
      perRun: EVENTS_PER_RUN,
      op: async () => {
        const outer = relay(EVENT_BATCH);
        while (!(await outer.next()).done) {
          // consumed
        }
      },
      scale: 1 / EVENT_BATCH,
    },
    {
      name: 'JSON argument text of a call (for scale)',
      perRun: TASK_TOOL_TURNS,
      op: () => JSON.parse(STEP_ARGUMENTS[1] as string),
    },
  ];
}

function noop(): void {}

/** Events a run of the task delivers to its caller (the bench counts them). */
const EVENTS_PER_RUN = 55;
const EVENT_BATCH = 50;

async function* source(count: number): AsyncGenerator<number> {
  for (let index = 0; index < count; index++) yield index;
}

/** The loop's shape: an outer async generator relaying an inner one with `yield*`. */
async function* relay(count: number): AsyncGenerator<number> {
  yield* source(count);
}

/** CPU µs per call of `op`: median of 7 timed batches of `count` calls after a warm-up. */
async function time(op: () => Promise<unknown> | unknown, count: number): Promise<number> {
  for (let index = 0; index < count; index++) await op();
  const samples: number[] = [];
  for (let batch = 0; batch < 7; batch++) {
    const start = process.cpuUsage();
    for (let index = 0; index < count; index++) await op();
    const used = process.cpuUsage(start);
    samples.push((used.user + used.system) / count);
  }
  return median(samples);
}

/**
 * Times the parts a run of @boxagnts/query is made of, each alone, and scales them by how often a
 * run of the 10-tool-turn task does them: where the loop's time per turn goes. Parts overlap (a
 * `runToolCalls` includes an `executeTool`), so the column does not add up to the run.
 */
export async function runBreakdown(write: (text: string) => void, quick: boolean): Promise<void> {
  const count = quick ? 400 : 2000;
  const rows: string[] = [];
  for (const part of parts()) {
    const micros = (await time(part.op, count)) * (part.scale ?? 1);
    rows.push(
      `${part.name.padEnd(66)} ${micros.toFixed(2).padStart(8)} ${String(part.perRun).padStart(7)} ` +
        `${((micros * part.perRun) / TURNS).toFixed(2).padStart(8)}`,
    );
  }
  write(
    [
      `${'part (timed alone, CPU)'.padEnd(66)} ${'µs/op'.padStart(8)} ${'ops/run'.padStart(7)} ${'µs/turn'.padStart(8)}`,
      ...rows,
      '',
      `µs/turn = µs/op x ops per run / ${TURNS} turns. Parts overlap (runToolCalls includes executeTool, TurnStream`,
      'the provider); compare with the boxagnts row of the main table.',
    ].join('\n'),
  );
}
