import {
  type AssistantMessage,
  type CatalogueModel,
  findModel,
  isAbortedError,
  isContextOverflowError,
  isNetworkError,
  isOverloadedError,
  isStreamStallError,
  type LlmError,
  type LlmProvider,
  type LlmRequest,
  type Message,
  type SystemPromptPart,
  type ToolResultBlock,
  type ToolUseBlock,
  transferHistory,
} from '@boxagnts/api';
import type { ToolResult } from '@boxagnts/tools';
import { compactHistory } from './compaction/compact-history.js';
import { estimateTokens } from './compaction/estimate-tokens.js';
import type { FallbackModel, QueryOptions } from './config.js';
import { EventBuffer } from './event-buffer.js';
import type { QueryEvent, ToolEndEvent, ToolStartEvent } from './events.js';
import type { QueryOutcome, QueryStopReason, RunUsage } from './outcome.js';
import { adapterForProvider } from './recovery/adapter-for-provider.js';
import { MAX_TOKENS_RESUME_PROMPT } from './recovery/resume-prompt.js';
import { callOptions, NEVER_ABORTED } from './run-signal.js';
import type { SessionEntry } from './session/session-store.js';
import { unsavedMessages } from './session/unsaved-messages.js';
import { TurnStream } from './stream-turn.js';
import { LazyAgentRunner } from './subagents/lazy-agent-runner.js';
import { subAgentConfig } from './subagents/managed-mode.js';
import { Semaphore } from './subagents/semaphore.js';
import { SubAgentPool } from './subagents/sub-agent-runner.js';
import { buildSystemPrompt } from './system-prompt.js';
import { baseToolContext } from './tools/base-tool-context.js';
import { LoopDetector } from './tools/loop-detector.js';
import { type RunToolCallsOptions, runToolCalls } from './tools/run-tool-calls.js';
import { NO_TOOLS, ToolCatalog, toolSource } from './tools/tool-catalog.js';
import { messageToolResultChars, trimToolResults } from './tools/trim-tool-results.js';
import { callCost, createRunUsage, recordCall } from './usage-totals.js';

const DEFAULTS = {
  maxTurns: 50,
  toolResultBudgetChars: 50_000,
  contextWindow: 200_000,
  maxTokensResumes: 3,
  streamRetries: 2,
  maxConcurrency: 8,
  toolTimeoutMs: 120_000,
  loopThreshold: 3,
  compactThreshold: 0.75,
  warningThreshold: 0.8,
  criticalThreshold: 0.9,
};

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

const NO_FALLBACKS = Object.freeze([]) as unknown as FallbackModel[];
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

/** The context window of `model`: the config's, the catalogue's, or the default. */
function contextWindowOf(config: QueryOptions['config'], provider: LlmProvider, model: string): number {
  return config.contextWindow ?? findModel(model, { provider: provider.id })?.contextWindow ?? DEFAULTS.contextWindow;
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
  const subAgents = subAgentConfig(options);
  return runLoop(options, {
    depth: 0,
    semaphore: new Semaphore(subAgents.maxConcurrent ?? 4),
    turns: { count: 0 },
    ...(subAgents.maxTreeTurns === undefined ? {} : { maxTreeTurns: subAgents.maxTreeTurns }),
  });
}

/** What every run of one tree shares. */
interface RunTree {
  depth: number;
  semaphore: Semaphore;
  /** Model calls made by the whole tree. */
  turns: { count: number };
  maxTreeTurns?: number;
}

async function* runLoop(options: QueryOptions, tree: RunTree): AsyncGenerator<QueryEvent, QueryOutcome> {
  const { config } = options;
  const outer = options.signal;
  // A run's own controller exists only when something can cancel it (the caller or the timeout).
  const controller = outer === undefined && config.timeoutMs === undefined ? undefined : new AbortController();
  const onAbort = outer === undefined || controller === undefined ? undefined : () => controller.abort(outer.reason);
  if (outer?.aborted) controller?.abort(outer.reason);
  else if (onAbort !== undefined) outer?.addEventListener('abort', onAbort, { once: true });
  const signal = controller === undefined ? NEVER_ABORTED : controller.signal;
  let timedOut = false;
  const runTimer =
    config.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller?.abort(new Error(`the run took longer than ${config.timeoutMs} ms`));
        }, config.timeoutMs);

  const messages: Message[] = [...options.messages];
  const usage: RunUsage = createRunUsage();
  const agent = config.agent;
  let model = agent?.model ?? config.model;
  let provider: LlmProvider = options.provider;
  const maxTurns = agent?.maxTurns ?? config.maxTurns ?? DEFAULTS.maxTurns;
  const temperature = agent?.temperature ?? config.temperature;
  const compaction = config.compaction ?? {};
  const compactionEnabled = compaction.enabled !== false;
  const recovery = config.recovery ?? {};
  const toolConfig = config.tools ?? {};
  const budgetChars = config.toolResultBudgetChars ?? DEFAULTS.toolResultBudgetChars;
  // Copied only when there is something to take from it (the shared empty list is never shifted).
  const fallbacks: FallbackModel[] =
    config.fallbackModels !== undefined && config.fallbackModels.length > 0 ? [...config.fallbackModels] : NO_FALLBACKS;
  let contextWindow = contextWindowOf(config, provider, model);
  const tools = new ToolCatalog(toolSource(options.tools ?? NO_TOOLS, agent, Boolean(config.managed)));
  const loopDetector = new LoopDetector(toolConfig.loopThreshold ?? DEFAULTS.loopThreshold);
  const store = options.session;
  const buffer = new EventBuffer<QueryEvent>();
  const baseContext = baseToolContext(options.toolContext, signal);
  let pool: SubAgentPool | undefined;
  // The pool is made when a tool first uses its runner: most runs never start a sub-agent.
  const openAgents = (toolCallId: string) => {
    pool ??= new SubAgentPool({
      options,
      depth: tree.depth,
      signal,
      usage,
      emit: (event) => buffer.push(event),
      remainingBudget: () => (config.budgetUsd === undefined ? undefined : config.budgetUsd - usage.total.costUsd),
      runChild: (childOptions, depth) => runLoop(childOptions, { ...tree, depth }),
      config: subAgentConfig(options),
      semaphore: tree.semaphore,
    });
    return pool.forCall(toolCallId);
  };
  const agentsFor =
    options.toolContext.agents === undefined
      ? (toolCallId: string) => new LazyAgentRunner(openAgents, toolCallId)
      : undefined;
  // The tool-call hooks are made once per run, not per turn; `looping` is reset before each turn's calls.
  let looping = false;
  const emitToolEvent = (event: ToolStartEvent | ToolEndEvent) => buffer.push(event);
  const annotate = (call: ToolUseBlock, toolResult: ToolResult) => {
    const checked = loopDetector.check(call, toolResult);
    looping ||= checked.looping;
    return checked.result;
  };
  const maxConcurrency = toolConfig.maxConcurrency ?? DEFAULTS.maxConcurrency;
  const toolTimeoutMs = toolConfig.timeoutMs ?? DEFAULTS.toolTimeoutMs;
  const workingDirectory = config.workingDirectory ?? options.toolContext.root;
  const date = config.date ?? today();

  // The catalogue row of the last priced model (findModel itself remembers its answers).
  let priceModel: string | undefined;
  let priceRow: CatalogueModel | string = '';
  let system: SystemPromptPart[] = [];
  let turn = 0;
  let maxTokensResumes = 0;
  let streamRetries = 0;
  let overflowCompactions = 0;
  let toolChars = 0;
  for (const message of messages) toolChars += messageToolResultChars(message);
  let lastInputTokens = 0;
  // Until the first call reports usage, the whole history is an estimate.
  let charsSinceUsage = estimateTokens(messages) * 4;
  let pressure: 'none' | 'warning' | 'critical' = 'none';
  let fruitlessCompactions = 0;
  let compactionStalled = false;

  const finish = (stop: QueryStopReason, extra: Record<string, unknown> = {}): QueryOutcome => {
    if (onAbort !== undefined) outer?.removeEventListener('abort', onAbort);
    if (runTimer !== undefined) clearTimeout(runTimer);
    let reason = stop;
    if (stop === 'cancelled' && timedOut) {
      reason = 'error';
      extra = { error: `timeout: the run took longer than ${config.timeoutMs} ms` };
    }
    return { reason, messages, turns: turn, usage, text: lastText(messages), ...extra } as QueryOutcome;
  };

  // The user message (and anything else new) is stored before the model is called.
  if (store && options.messages.length > 0) {
    const unsaved =
      store.unsaved !== undefined
        ? options.messages.slice(options.messages.length - Math.min(store.unsaved, options.messages.length))
        : unsavedMessages(options.messages, await store.store.load(store.sessionId));
    if (unsaved === undefined) {
      return yield* endRun(
        pool,
        buffer,
        finish('error', {
          error:
            `The messages do not continue session "${store.sessionId}": none of them is the last stored message. ` +
            'Pass session.unsaved (how many trailing messages are new), or start from historyFromEntries(await store.load(id)).',
        }),
      );
    }
    if (unsaved.length > 0)
      await store.store.append(
        store.sessionId,
        unsaved.map((message) => ({ message })),
      );
  }

  for (;;) {
    if (signal.aborted) return yield* endRun(pool, buffer, finish('cancelled'));
    if (turn >= maxTurns) return yield* endRun(pool, buffer, finish('max_turns'));
    if (tree.maxTreeTurns !== undefined && tree.turns.count >= tree.maxTreeTurns)
      return yield* endRun(pool, buffer, finish('max_turns'));
    if (config.budgetUsd !== undefined && usage.total.costUsd >= config.budgetUsd) {
      return yield* endRun(
        pool,
        buffer,
        finish('budget_exceeded', { costUsd: usage.total.costUsd, limitUsd: config.budgetUsd }),
      );
    }
    const pending = options.pending?.drain() ?? NO_PENDING;
    if (pending.length > 0) {
      for (const message of pending) {
        messages.push(message);
        charsSinceUsage += JSON.stringify(message.content).length;
        yield { type: 'user-message', message };
      }
      if (store)
        await persist(
          store,
          pending.map((message) => ({ message })),
        );
    }
    if (toolChars > budgetChars) {
      const report = trimToolResults(messages, budgetChars, toolChars);
      toolChars = report.remainingChars;
      if (report.trimmed > 0) {
        yield {
          type: 'status',
          kind: 'tool-results-trimmed',
          message: `Removed ${report.trimmed} old tool result(s) (${report.removedChars} characters) to stay within the tool-result budget.`,
          data: { ...report },
        };
      }
    }
    if (tools.refresh() || system.length === 0) {
      system = buildSystemPrompt({
        ...(agent ? { agent } : {}),
        ...(config.systemPrompt ? { role: config.systemPrompt } : {}),
        toolNames: tools.names,
        ...(config.skills ? { skills: config.skills } : {}),
        ...(config.outputStyle ? { outputStyle: config.outputStyle } : {}),
        ...(config.appendSystemPrompt ? { append: config.appendSystemPrompt } : {}),
        ...(config.agentsMd ? { agentsMd: config.agentsMd } : {}),
        ...(config.managed ? { managed: config.managed } : {}),
        workingDirectory,
        date,
      });
    }
    const tokens = lastInputTokens + Math.ceil(charsSinceUsage / 4);
    const critical = compaction.criticalThreshold ?? DEFAULTS.criticalThreshold;
    const warning = compaction.warningThreshold ?? DEFAULTS.warningThreshold;
    const level =
      tokens >= contextWindow * critical ? 'critical' : tokens >= contextWindow * warning ? 'warning' : 'none';
    if (level !== 'none' && level !== pressure) yield { type: 'token-pressure', level, tokens, contextWindow };
    pressure = level;
    if (
      compactionEnabled &&
      !compactionStalled &&
      tokens >= contextWindow * (compaction.threshold ?? DEFAULTS.compactThreshold)
    ) {
      const compacted = yield* compactHistory({
        messages,
        provider,
        model,
        config: compaction,
        signal,
        targetTokens: Math.floor(contextWindow * (compaction.threshold ?? DEFAULTS.compactThreshold) * 0.6),
        tokens,
        ...(agent ? { agent } : {}),
        ...(config.agentsMd ? { agentsMd: config.agentsMd } : {}),
      });
      if (compacted.changed) {
        messages.splice(0, messages.length, ...compacted.messages);
        lastInputTokens = 0;
        charsSinceUsage = estimateTokens(messages) * 4;
        toolChars = 0;
        for (const message of messages) toolChars += messageToolResultChars(message);
        if (compacted.summaryMessage) {
          await persist(store, [
            { message: compacted.summaryMessage, compaction: { keptMessages: compacted.keptMessages ?? 0 } },
          ]);
        }
        // Stall guard: compaction that leaves the context over the threshold twice stops trying.
        const after = estimateTokens(messages);
        fruitlessCompactions =
          after >= contextWindow * (compaction.threshold ?? DEFAULTS.compactThreshold) ? fruitlessCompactions + 1 : 0;
      } else {
        fruitlessCompactions++;
      }
      if (fruitlessCompactions >= 2) {
        compactionStalled = true;
        yield {
          type: 'status',
          kind: 'compacted',
          message: 'Compaction cannot shrink the context further; it is off for the rest of this run.',
          data: { phase: 'stalled' },
        };
      }
    }

    turn++;
    tree.turns.count++;
    yield { type: 'turn-start', turn, model };
    // Optional fields are assigned, not spread: the request is built on every turn.
    const request: LlmRequest = { model, system, messages };
    if (tools.definitions.length > 0) request.tools = tools.definitions;
    if (config.maxOutputTokens !== undefined) request.maxOutputTokens = config.maxOutputTokens;
    if (temperature !== undefined) request.temperature = temperature;
    if (config.thinking) request.thinking = config.thinking;
    // The provider's stream is read here, not through a nested generator: one fewer per model call.
    const stream = new TurnStream(turn, provider.id);
    try {
      for await (const event of provider.streamMessage(request, callOptions(signal))) {
        const delta = stream.push(event);
        if (delta !== undefined) yield delta;
        if (stream.done) break;
      }
    } catch (error) {
      stream.fail(error, signal);
    }
    const result = stream.result();
    if (!result.ok) {
      const error: LlmError = result.error;
      if (signal.aborted || isAbortedError(error)) return yield* endRun(pool, buffer, finish('cancelled'));
      if (isContextOverflowError(error)) {
        if (!compactionEnabled || overflowCompactions >= 1)
          return yield* endRun(pool, buffer, finish('context_overflow'));
        overflowCompactions++;
        yield { type: 'recoverable-error', error, action: 'compact', attempt: overflowCompactions };
        const compacted = yield* compactHistory({
          messages,
          provider,
          model,
          config: compaction,
          signal,
          targetTokens: Math.floor(contextWindow * 0.5),
          tokens: contextWindow,
          force: true,
          ...(agent ? { agent } : {}),
          ...(config.agentsMd ? { agentsMd: config.agentsMd } : {}),
        });
        if (!compacted.changed) return yield* endRun(pool, buffer, finish('context_overflow'));
        messages.splice(0, messages.length, ...compacted.messages);
        if (compacted.summaryMessage) {
          await persist(store, [
            { message: compacted.summaryMessage, compaction: { keptMessages: compacted.keptMessages ?? 0 } },
          ]);
        }
        lastInputTokens = 0;
        charsSinceUsage = estimateTokens(messages) * 4;
        continue;
      }
      if (isOverloadedError(error) && fallbacks.length > 0) {
        const next = fallbacks.shift() as FallbackModel;
        const nextProvider = next.provider ?? provider;
        yield { type: 'recoverable-error', error, action: 'fallback', attempt: 1 };
        if (nextProvider !== provider) {
          const transferred = transferHistory(messages, {
            from: { adapter: adapterForProvider(provider), providerId: provider.id },
            to: { adapter: next.adapter ?? adapterForProvider(nextProvider), providerId: nextProvider.id },
          });
          messages.splice(0, messages.length, ...transferred.messages);
        }
        yield {
          type: 'status',
          kind: 'fallback',
          message: `${model} is overloaded; continuing on ${next.model}${nextProvider !== provider ? ` (${nextProvider.id})` : ''}.`,
          data: { from: model, to: next.model, provider: nextProvider.id },
        };
        provider = nextProvider;
        model = next.model;
        contextWindow = contextWindowOf(config, provider, model);
        continue;
      }
      const streamFailure = isStreamStallError(error) || isNetworkError(error);
      if (streamFailure && streamRetries < (recovery.streamRetries ?? DEFAULTS.streamRetries)) {
        streamRetries++;
        yield { type: 'recoverable-error', error, action: 'retry-turn', attempt: streamRetries };
        yield {
          type: 'status',
          kind: 'retry-turn',
          message: `The response ${result.partialOutput ? 'broke off' : 'failed'} (${error.reason}); retrying the turn.`,
        };
        continue;
      }
      return yield* endRun(pool, buffer, finish('error', { error: `${error.reason}: ${error.message}`, cause: error }));
    }

    const { response } = result;
    const priced = response.model ?? model;
    if (priced !== priceModel) {
      priceModel = priced;
      priceRow =
        findModel(priced, { provider: provider.id, ...(options.catalogue ? { catalogue: options.catalogue } : {}) }) ??
        priced;
    }
    const costUsd = callCost(priceRow, provider.id, response.usage, options.catalogue);
    recordCall(usage, model, response.usage, costUsd);
    options.toolContext.costs?.add(costUsd ?? 0, `model call ${turn} (${model})`);
    lastInputTokens = response.usage.input.total + response.usage.output.total;
    charsSinceUsage = 0;
    const finishReason = response.finishReason.unified;
    const toolUses = response.message.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
    const cutOff = finishReason === 'length';
    const stored = cutOff && toolUses.length > 0 ? stripToolUses(response.message) : response.message;
    messages.push(stored);
    if (store) await store.store.append(store.sessionId, [{ message: stored, model, usage: response.usage }]);
    yield {
      type: 'turn-end',
      turn,
      model,
      message: stored,
      finishReason: response.finishReason,
      usage: response.usage,
    };
    yield { type: 'usage', turn, model, usage: response.usage, costUsd, totals: usage };

    if (cutOff) {
      if (maxTokensResumes >= (recovery.maxTokensResumes ?? DEFAULTS.maxTokensResumes)) {
        return yield* endRun(
          pool,
          buffer,
          finish('error', {
            error: `max_tokens: the reply was cut at the output limit ${maxTokensResumes + 1} times.`,
          }),
        );
      }
      maxTokensResumes++;
      const resume: Message = { role: 'user', content: MAX_TOKENS_RESUME_PROMPT };
      messages.push(resume);
      await persist(store, [{ message: resume }]);
      yield {
        type: 'status',
        kind: 'resume-after-max-tokens',
        message: `The reply hit the output limit; asking the model to continue (${maxTokensResumes}).`,
      };
      continue;
    }
    if (finishReason === 'refusal' || finishReason === 'content-filter')
      return yield* endRun(pool, buffer, finish('refusal'));
    if (toolUses.length === 0) return yield* endRun(pool, buffer, finish('end_turn'));

    looping = false;
    // Built as one literal plus an assignment: a spread in the middle of a literal makes a slow
    // (dictionary-mode) object, and this one is read on every tool call.
    const toolOptions: RunToolCallsOptions = {
      tools: tools.map,
      context: { ...baseContext, turnId: `turn-${turn}` },
      turn,
      maxConcurrency,
      timeoutMs: toolTimeoutMs,
      emit: emitToolEvent,
      annotate,
    };
    if (agentsFor) toolOptions.agentsFor = agentsFor;
    const work = runToolCalls(toolUses, toolOptions);
    // buffer.drainWhile, inlined: a nested generator would add promise hops to every event.
    buffer.watch(work);
    for (;;) {
      const events = buffer.take();
      if (events !== undefined) {
        for (const event of events) yield event;
        continue;
      }
      if (!buffer.busy) break;
      await buffer.wait();
    }
    const results = buffer.result() as ToolResultBlock[];
    const resultMessage: Message = { role: 'user', content: results };
    messages.push(resultMessage);
    const added = messageToolResultChars(resultMessage);
    toolChars += added;
    charsSinceUsage += added;
    if (store) await store.store.append(store.sessionId, [{ message: resultMessage }]);
    if (looping) {
      yield {
        type: 'status',
        kind: 'tool-loop',
        message: 'The model repeated an identical tool call; it was told so.',
      };
    }
  }
}

/** Appends to the run's session, when it has one. */
async function persist(store: QueryOptions['session'], entries: SessionEntry[]): Promise<void> {
  if (store) await store.store.append(store.sessionId, entries);
}

/** Ends a run: waits for background sub-agents (they do not outlive their parent), then `done`. */
async function* endRun(
  pool: SubAgentPool | undefined,
  buffer: EventBuffer<QueryEvent>,
  outcome: QueryOutcome,
): AsyncGenerator<QueryEvent, QueryOutcome> {
  if (pool) yield* buffer.drainWhile(pool.close());
  yield { type: 'done', outcome };
  return outcome;
}

/** Runs the loop to its end, calling `onEvent` for each event; resolves to the outcome. */
export async function runQueryToEnd(
  options: QueryOptions,
  onEvent?: (event: QueryEvent) => void,
): Promise<QueryOutcome> {
  const run = runQuery(options);
  for (;;) {
    const next = await run.next();
    if (next.done) return next.value;
    onEvent?.(next.value);
  }
}
