import type {
  AssistantMessage,
  LlmError,
  LlmRequest,
  Message,
  SystemPromptPart,
  ToolResultBlock,
  ToolUseBlock,
} from '@boxagnts/api';
import { chargeCall } from './charge-call.js';
import { compactRun, contextTokens, pressureEvent, shouldCompact } from './compaction/compact-step.js';
import { messageChars } from './compaction/estimate-tokens.js';
import type { QueryOptions } from './config.js';
import { EventBuffer } from './event-buffer.js';
import { callbackEmit, type EmitEvent, isRunStopped, RunIterator } from './event-channel.js';
import type { QueryEvent } from './events.js';
import { checkLimits, type LimitStop } from './limits/check-limits.js';
import { TurnOutputLimitError } from './limits/turn-output-limit-error.js';
import { unpricedModel } from './limits/unpriced-models.js';
import type { QueryOutcome, QueryStopReason } from './outcome.js';
import { recoverTurn, resumeAfterMaxTokens, switchToFallback } from './recovery/recover-turn.js';
import { MAX_TOKENS_RESUME_PROMPT } from './recovery/resume-prompt.js';
import { callOptions, NEVER_ABORTED } from './run-signal.js';
import { createRunState, LOOP_DEFAULTS, type RunIdentity, type RunState, type RunTree } from './run-state.js';
import { persist, persistStart } from './session/persist.js';
import { DEFAULT_MAX_TURN_OUTPUT_CHARS, TurnStream } from './stream-turn.js';
import { LazyAgentRunner } from './subagents/lazy-agent-runner.js';
import { subAgentConfig } from './subagents/managed-mode.js';
import { Semaphore } from './subagents/semaphore.js';
import { SubAgentPool } from './subagents/sub-agent-runner.js';
import { buildSystemPrompt } from './system-prompt.js';
import { baseToolContext } from './tools/base-tool-context.js';
import { LoopDetector } from './tools/loop-detector.js';
import { NO_TOOLS, ToolCatalog, toolSource } from './tools/tool-catalog.js';
import { ToolPhase } from './tools/tool-phase.js';
import { messageToolResultChars, trimToolResults } from './tools/trim-tool-results.js';
import { createRunUsage } from './usage-totals.js';

function lastText(messages: readonly Message[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role !== 'assistant') continue;
    let text = '';
    for (const block of message.content) if (block.type === 'text') text += block.text;
    return text;
  }
  return '';
}

function stripToolUses(message: AssistantMessage): AssistantMessage {
  return { ...message, content: message.content.filter((block) => block.type !== 'tool_use') };
}

const NO_PENDING: readonly Message[] = Object.freeze([]);

const DAY_MS = 86_400_000;
let todayNumber = -1;
let todayText = '';

/** Today's UTC date (`YYYY-MM-DD`), formatted once a day rather than once a run (about 1 µs each). */
function today(): string {
  const day = Math.floor(Date.now() / DAY_MS);
  if (day !== todayNumber) {
    todayNumber = day;
    todayText = new Date(day * DAY_MS).toISOString().slice(0, 10);
  }
  return todayText;
}

/**
 * Runs the agent loop: calls the model, runs the tools it asks for, feeds the results back, and
 * goes on until the model answers without tools or a limit is hit. Yields every event as it
 * happens; the last event is `done` with the typed outcome, which is also the return value.
 * Never throws: failures end the run with a reason.
 *
 * @example
 * for await (const event of runQuery({ provider, messages, tools, toolContext, config: { model } })) {
 *   if (event.type === 'text-delta') process.stdout.write(event.delta);
 *   if (event.type === 'done') console.log(event.outcome.reason);
 * }
 */
export function runQuery(options: QueryOptions): AsyncGenerator<QueryEvent, QueryOutcome> {
  // A thin adapter over the loop's core: the core waits in `emit` until the next event is asked for.
  const tree = rootTree(options);
  return new RunIterator(runLoop, options, tree);
}

/** The tree of a top-level run: its sub-agents' semaphore and turn count. */
function rootTree(options: QueryOptions): RunTree {
  const subAgents = subAgentConfig(options);
  return {
    depth: 0,
    semaphore: new Semaphore(subAgents.maxConcurrent ?? 4),
    turns: { count: 0 },
    ...(subAgents.maxTreeTurns === undefined ? {} : { maxTreeTurns: subAgents.maxTreeTurns }),
  };
}

/**
 * The system prompt of a run for its current tools. Kept out of the loop's generator, as is
 * {@link turnRequest}: every temporary of a generator's body stays in its frame while the run
 * is suspended (hundreds of bytes per in-flight run for a body this size).
 */
function runSystemPrompt(
  config: QueryOptions['config'],
  toolNames: string[],
  workingDirectory: string,
  date: string,
): SystemPromptPart[] {
  const agent = config.agent;
  return buildSystemPrompt({
    ...(agent ? { agent } : {}),
    ...(config.systemPrompt ? { role: config.systemPrompt } : {}),
    toolNames,
    ...(config.skills ? { skills: config.skills } : {}),
    ...(config.outputStyle ? { outputStyle: config.outputStyle } : {}),
    ...(config.appendSystemPrompt ? { append: config.appendSystemPrompt } : {}),
    ...(config.agentsMd ? { agentsMd: config.agentsMd } : {}),
    ...(config.managed ? { managed: config.managed } : {}),
    workingDirectory,
    date,
  });
}

/** The request of one turn. Optional fields are assigned, not spread: it is built on every turn. */
function turnRequest(
  config: QueryOptions['config'],
  model: string,
  system: SystemPromptPart[],
  messages: Message[],
  definitions: LlmRequest['tools'] & object,
  temperature: number | undefined,
): LlmRequest {
  const request: LlmRequest = { model, system, messages };
  if (definitions.length > 0) request.tools = definitions;
  if (config.maxOutputTokens !== undefined) request.maxOutputTokens = config.maxOutputTokens;
  if (temperature !== undefined) request.temperature = temperature;
  if (config.thinking) request.thinking = config.thinking;
  return request;
}

/** The end of a run, as the outcome's reason and extra fields. */
type Stop = { stop: QueryStopReason; extra?: Record<string, unknown> };

function limitStop(limit: LimitStop): Stop {
  return limit.reason === 'budget_exceeded'
    ? { stop: 'budget_exceeded', extra: { costUsd: limit.costUsd, limitUsd: limit.limitUsd } }
    : { stop: limit.reason };
}

/** Adds pending user messages to the history (stored first); returns the events to report. */
async function addPending(state: RunState, pending: readonly Message[]): Promise<void> {
  for (const message of pending) {
    state.messages.push(message);
    state.charsSinceUsage += messageChars(message);
  }
  await persist(
    state.session,
    pending.map((message) => ({ message })),
  );
}

/**
 * The turn skeleton: check the limits, prepare the messages (pending, trimming, compaction),
 * call the model, act on the reply (tools, resume, end), recover from a failed call. Each
 * mechanism lives in a file of its own; this function only sequences them over the run state.
 */
async function runLoop(
  options: QueryOptions,
  tree: RunTree,
  identity: RunIdentity,
  emit: EmitEvent,
): Promise<QueryOutcome> {
  const { config } = options;
  const outer = options.signal;
  // A run's own controller exists only for a timeout: a caller's signal alone is used as it is (a
  // controller and the listener that forwards the caller's abort cost about 0.8 KiB and 3 µs a run).
  const controller = config.timeoutMs === undefined ? undefined : new AbortController();
  const onAbort = outer === undefined || controller === undefined ? undefined : () => controller.abort(outer.reason);
  if (outer?.aborted) controller?.abort(outer.reason);
  else if (onAbort !== undefined) outer?.addEventListener('abort', onAbort, { once: true });
  const signal = controller?.signal ?? outer ?? NEVER_ABORTED;
  let timedOut = false;
  const runTimer =
    config.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller?.abort(new Error(`the run took longer than ${config.timeoutMs} ms`));
        }, config.timeoutMs);

  const buffer = new EventBuffer<QueryEvent>();
  const state = createRunState(options, tree, identity, signal, buffer);
  const { messages } = state;
  const agent = config.agent;
  const temperature = agent?.temperature ?? config.temperature;
  const toolConfig = config.tools ?? {};
  const budgetChars = config.toolResultBudgetChars ?? LOOP_DEFAULTS.toolResultBudgetChars;
  const tools = new ToolCatalog(toolSource(options.tools ?? NO_TOOLS, agent, Boolean(config.managed)));
  const baseContext = baseToolContext(options.toolContext, signal, state.mode);
  let pool: SubAgentPool | undefined;
  // The pool is made when a tool first uses its runner: most runs never start a sub-agent.
  const openAgents = (toolCallId: string) => {
    pool ??= new SubAgentPool({
      options,
      depth: tree.depth,
      signal,
      usage: state.usage,
      ledger: state.ledger,
      ...(state.usageSession ? { session: state.usageSession } : {}),
      emit: (event) => buffer.push(event),
      remainingBudget: () => state.ledger.remainingUsd(),
      runChild: (childOptions, depth, child, onEvent) =>
        runChildToEnd(childOptions, { ...tree, depth }, child ?? { parentLedger: state.ledger }, onEvent),
      config: subAgentConfig(options),
      semaphore: tree.semaphore,
    });
    return pool.forCall(toolCallId);
  };
  // The tool calls' hooks and settings: one object per run, not closures per run or per turn.
  const toolPhase = new ToolPhase(
    buffer,
    new LoopDetector(
      toolConfig.loopThreshold ?? LOOP_DEFAULTS.loopThreshold,
      toolConfig.loopStopThreshold ?? LOOP_DEFAULTS.loopStopThreshold,
    ),
    {
      maxConcurrency: toolConfig.maxConcurrency ?? LOOP_DEFAULTS.maxConcurrency,
      timeoutMs: toolConfig.timeoutMs ?? LOOP_DEFAULTS.toolTimeoutMs,
      maxResultChars: toolConfig.maxResultChars ?? LOOP_DEFAULTS.maxResultChars,
      maxCalls: toolConfig.maxCallsPerTurn ?? LOOP_DEFAULTS.maxCallsPerTurn,
    },
    options.toolContext.agents === undefined
      ? (toolCallId: string) => new LazyAgentRunner(openAgents, toolCallId)
      : undefined,
  );
  const maxOutputChars = config.maxTurnOutputChars ?? DEFAULT_MAX_TURN_OUTPUT_CHARS;
  const workingDirectory = config.workingDirectory ?? options.toolContext.root;
  const date = config.date ?? today();
  let system: SystemPromptPart[] = [];
  // One options object for every model call of the run (it only carries the run's signal).
  const modelCallOptions = callOptions(signal);

  const finish = (end: Stop): QueryOutcome => {
    if (onAbort !== undefined) outer?.removeEventListener('abort', onAbort);
    if (runTimer !== undefined) clearTimeout(runTimer);
    let reason = end.stop;
    let extra = end.extra;
    if (reason === 'cancelled' && timedOut) {
      reason = 'error';
      extra = { error: `timeout: the run took longer than ${config.timeoutMs} ms` };
    }
    return {
      reason,
      messages,
      turns: state.turn,
      usage: state.usage,
      text: lastText(messages),
      ...extra,
    } as QueryOutcome;
  };

  const unpriced = unpricedModel(state);
  if (unpriced !== undefined) {
    return endRun(pool, buffer, emit, finish({ stop: 'error', extra: { error: unpriced.message, cause: unpriced } }));
  }
  // The user message (and anything else new) is stored before the model is called.
  const startError = state.session === undefined ? undefined : await persistStart(state.session, options.messages);
  if (startError !== undefined)
    return endRun(pool, buffer, emit, finish({ stop: 'error', extra: { error: startError } }));

  for (;;) {
    const limit = checkLimits(state);
    if (limit !== undefined) return endRun(pool, buffer, emit, finish(limitStop(limit)));
    const pending = options.pending?.drain() ?? NO_PENDING;
    if (pending.length > 0) {
      await addPending(state, pending);
      for (const message of pending) {
        let wait = emit({ type: 'user-message', message });
        if (wait !== undefined) wait = await wait;
      }
    }
    if (state.toolChars > budgetChars) {
      const report = trimToolResults(messages, budgetChars, state.toolChars);
      state.toolChars = report.remainingChars;
      if (report.trimmed > 0) {
        {
          let wait = emit({
            type: 'status',
            kind: 'tool-results-trimmed',
            message: `Removed ${report.trimmed} old tool result(s) (${report.removedChars} characters) to stay within the tool-result budget.`,
            data: { ...report },
          });
          if (wait !== undefined) wait = await wait;
        }
      }
    }
    if (tools.refresh() || system.length === 0) system = runSystemPrompt(config, tools.names, workingDirectory, date);
    const tokens = contextTokens(state);
    const pressure = pressureEvent(state, tokens);
    if (pressure !== undefined) {
      let wait = emit(pressure);
      if (wait !== undefined) wait = await wait;
    }
    if (shouldCompact(state, tokens)) {
      await forward(emit, compactRun(state, tokens, false));
      // The summary call may have spent what was left.
      const after = checkLimits(state);
      if (after !== undefined) return endRun(pool, buffer, emit, finish(limitStop(after)));
    }

    state.turn++;
    tree.turns.count++;
    const turn = state.turn;
    const model = state.model;
    const provider = state.provider;
    {
      let wait = emit({ type: 'turn-start', turn, model });
      if (wait !== undefined) wait = await wait;
    }
    const request = turnRequest(config, model, system, messages, tools.definitions, temperature);
    // The provider's stream is read here, not through a nested generator: one fewer per model call.
    const stream = new TurnStream(turn, provider.id, maxOutputChars);
    try {
      for await (const event of provider.streamMessage(request, modelCallOptions)) {
        const delta = stream.push(event);
        if (delta !== undefined) {
          let wait = emit(delta);
          if (wait !== undefined) wait = await wait;
        }
        if (stream.done) break;
      }
    } catch (error) {
      // The consumer stopped the run: it unwinds (the provider's stream is closed by now).
      if (isRunStopped(error)) throw error;
      stream.fail(error, signal);
    }
    const result = stream.result();
    if (!result.ok && result.tooLarge !== undefined) {
      const cause = new TurnOutputLimitError(result.tooLarge.limitChars, result.tooLarge.receivedChars);
      return endRun(pool, buffer, emit, finish({ stop: 'error', extra: { error: cause.message, cause } }));
    }
    if (!result.ok) {
      const error: LlmError = result.error;
      const recovery = recoverTurn(state, error);
      switch (recovery.action) {
        case 'compact': {
          {
            let wait = emit({ type: 'recoverable-error', error, action: 'compact', attempt: recovery.attempt });
            if (wait !== undefined) wait = await wait;
          }
          const changed = await forward(emit, compactRun(state, state.contextWindow, true));
          if (!changed) return endRun(pool, buffer, emit, finish({ stop: 'context_overflow' }));
          continue;
        }
        case 'fallback':
          {
            let wait = emit({ type: 'recoverable-error', error, action: 'fallback', attempt: 1 });
            if (wait !== undefined) wait = await wait;
          }
          {
            let wait = emit(switchToFallback(state, recovery.next));
            if (wait !== undefined) wait = await wait;
          }
          continue;
        case 'retry':
          {
            let wait = emit({ type: 'recoverable-error', error, action: 'retry-turn', attempt: recovery.attempt });
            if (wait !== undefined) wait = await wait;
          }
          {
            let wait = emit({
              type: 'status',
              kind: 'retry-turn',
              message: `The response ${result.partialOutput ? 'broke off' : 'failed'} (${error.reason}); retrying the turn.`,
            });
            if (wait !== undefined) wait = await wait;
          }
          continue;
        default:
          if (recovery.reason !== 'error') return endRun(pool, buffer, emit, finish({ stop: recovery.reason }));
          return endRun(
            pool,
            buffer,
            emit,
            finish({ stop: 'error', extra: { error: `${error.reason}: ${error.message}`, cause: error } }),
          );
      }
    }

    const { response } = result;
    state.overflowCompactions = 0;
    const charged = chargeCall(state, response.model ?? model, provider.id, response.usage, 'turn');
    const finishReason = response.finishReason.unified;
    const toolUses = response.message.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
    const cutOff = finishReason === 'length';
    const stored = cutOff && toolUses.length > 0 ? stripToolUses(response.message) : response.message;
    messages.push(stored);
    if (response.usage.input.total > 0) {
      state.lastInputTokens = response.usage.input.total + response.usage.output.total;
      state.charsSinceUsage = 0;
    } else {
      // A provider that reports no input tokens: the estimate goes on (proactive compaction still works).
      state.charsSinceUsage += messageChars(stored);
    }
    // No `await` without a store: awaiting `undefined` still costs a turn of the microtask queue.
    const saving = persist(state.session, [{ message: stored, model, usage: response.usage }]);
    if (saving !== undefined) await saving;
    if (charged.write !== undefined) await charged.write;
    {
      let wait = emit({
        type: 'turn-end',
        turn,
        model,
        message: stored,
        finishReason: response.finishReason,
        usage: response.usage,
      });
      if (wait !== undefined) wait = await wait;
    }
    {
      let wait = emit({
        type: 'usage',
        turn,
        model,
        usage: response.usage,
        costUsd: charged.costUsd,
        totals: state.usage,
      });
      if (wait !== undefined) wait = await wait;
    }

    if (cutOff) {
      const resumed = resumeAfterMaxTokens(state);
      if (!resumed.resume)
        return endRun(pool, buffer, emit, finish({ stop: 'error', extra: { error: resumed.error } }));
      const resume: Message = { role: 'user', content: MAX_TOKENS_RESUME_PROMPT };
      messages.push(resume);
      await persist(state.session, [{ message: resume }]);
      {
        let wait = emit({
          type: 'status',
          kind: 'resume-after-max-tokens',
          message: `The reply hit the output limit; asking the model to continue (${state.maxTokensResumes}).`,
        });
        if (wait !== undefined) wait = await wait;
      }
      continue;
    }
    if (finishReason === 'refusal' || finishReason === 'content-filter')
      return endRun(pool, buffer, emit, finish({ stop: 'refusal' }));
    if (toolUses.length === 0) {
      // Messages queued while the answer streamed: a follow-up turn, or handed back; never dropped.
      const late = options.pending?.drain() ?? NO_PENDING;
      if (late.length === 0) return endRun(pool, buffer, emit, finish({ stop: 'end_turn' }));
      const blocked = checkLimits(state);
      if (config.pendingAtEnd === 'return' || blocked !== undefined) {
        const end = blocked === undefined ? { stop: 'end_turn' as const } : limitStop(blocked);
        return endRun(pool, buffer, emit, finish({ ...end, extra: { ...end.extra, pending: [...late] } }));
      }
      await addPending(state, late);
      for (const message of late) {
        let wait = emit({ type: 'user-message', message });
        if (wait !== undefined) wait = await wait;
      }
      {
        let wait = emit({
          type: 'status',
          kind: 'pending-messages',
          message: `${late.length} message(s) arrived while the answer streamed; answering them in a follow-up turn.`,
        });
        if (wait !== undefined) wait = await wait;
      }
      continue;
    }

    toolPhase.start(toolUses, tools.map, { ...baseContext, turnId: `turn-${turn}` }, turn);
    // The calls' events as they come, drained here rather than in `drainWhile` (an async function
    // awaited is one more microtask hop per turn); the buffer holds the results once they are in.
    {
      let wait = drainStep(buffer, emit);
      while (wait !== undefined) {
        await wait;
        wait = drainStep(buffer, emit);
      }
    }
    const results = buffer.result() as ToolResultBlock[];
    const resultMessage: Message = { role: 'user', content: results };
    messages.push(resultMessage);
    const added = messageToolResultChars(resultMessage);
    state.toolChars += added;
    state.charsSinceUsage += added;
    const savingResults = persist(state.session, [{ message: resultMessage }]);
    if (savingResults !== undefined) await savingResults;
    if (toolPhase.looping) {
      {
        let wait = emit({
          type: 'status',
          kind: 'tool-loop',
          message: toolPhase.stop
            ? 'The model kept repeating the same tool calls; the run stops.'
            : 'The model repeated the same tool calls; it was told so.',
        });
        if (wait !== undefined) wait = await wait;
      }
    }
    if (toolPhase.stop) return endRun(pool, buffer, emit, finish({ stop: 'tool_loop' }));
  }
}

/** Ends a run: waits for background sub-agents (they do not outlive their parent), then `done`. */
async function endRun(
  pool: SubAgentPool | undefined,
  buffer: EventBuffer<QueryEvent>,
  emit: EmitEvent,
  outcome: QueryOutcome,
): Promise<QueryOutcome> {
  if (pool) await drainWhile(buffer, emit, pool.close());
  let wait = emit({ type: 'done', outcome });
  if (wait !== undefined) wait = await wait;
  return outcome;
}

/** Emits the buffer's events until `work` settles, then the rest; resolves to what `work` resolved to. */
async function drainWhile(buffer: EventBuffer<QueryEvent>, emit: EmitEvent, work: Promise<unknown>): Promise<unknown> {
  buffer.watch(work);
  let wait = drainStep(buffer, emit);
  while (wait !== undefined) {
    await wait;
    wait = drainStep(buffer, emit);
  }
  return buffer.result();
}

/**
 * Emits the buffered events in order until one has to be waited for; returns that wait (the
 * consumer's, or the buffer's next push or settling while its work is busy), or `undefined` once
 * the work has settled and every event is out.
 */
function drainStep(buffer: EventBuffer<QueryEvent>, emit: EmitEvent): Promise<unknown> | undefined {
  for (let event = buffer.shift(); event !== undefined; event = buffer.shift()) {
    const wait = emit(event);
    if (wait !== undefined) return wait;
  }
  return buffer.busy ? buffer.wait() : undefined;
}

/**
 * Emits the events of a mechanism written as a generator (compaction); returns its value. Closes
 * it when the run is stopped while it is suspended, as `yield*` would.
 */
async function forward<R>(emit: EmitEvent, events: AsyncGenerator<QueryEvent, R>): Promise<R> {
  let finished = false;
  try {
    for (;;) {
      const next = await events.next();
      if (next.done === true) {
        finished = true;
        return next.value;
      }
      let wait = emit(next.value);
      if (wait !== undefined) wait = await wait;
    }
  } finally {
    if (!finished) await events.return(undefined as R);
  }
}

/**
 * A child run of the tree to its end, each event handed to `onEvent` (sub-agents): the core with
 * no generator between. Rejects with what `onEvent` threw, or what the run failed with.
 */
function runChildToEnd(
  options: QueryOptions,
  tree: RunTree,
  identity: RunIdentity,
  onEvent: (event: QueryEvent) => void,
): Promise<QueryOutcome> {
  return runLoop(options, tree, identity, callbackEmit(onEvent)).catch((error: unknown) => {
    throw isRunStopped(error) ? error.consumerError : error;
  });
}

/** Runs the loop to its end, calling `onEvent` for each event; resolves to the outcome. */
export function runQueryToEnd(options: QueryOptions, onEvent?: (event: QueryEvent) => void): Promise<QueryOutcome> {
  // The loop's core with a callback: no generator between the loop and `onEvent` (55 hops a run),
  // and no async frame of its own held while the run is in flight.
  let tree: RunTree;
  try {
    tree = rootTree(options);
  } catch (error) {
    return Promise.reject(error);
  }
  return runLoop(options, tree, {}, callbackEmit(onEvent)).catch((thrown: unknown) => unexpectedEnd(options, thrown));
}

/**
 * The outcome of a run that threw: the loop never throws by design; this keeps the promise of
 * `runQueryToEnd` whatever happens (an `onEvent` that throws, a host store that throws, an engine
 * limit such as RangeError).
 */
function unexpectedEnd(options: QueryOptions, thrown: unknown): QueryOutcome {
  const error = isRunStopped(thrown) ? thrown.consumerError : thrown;
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    reason: 'error',
    error: `internal: the run failed unexpectedly (${message})`,
    cause: error,
    messages: [...options.messages],
    turns: 0,
    usage: createRunUsage(),
    text: '',
  };
}
