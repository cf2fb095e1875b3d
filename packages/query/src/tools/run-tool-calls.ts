import type { ToolResultBlock, ToolUseBlock } from '@boxagnts/api';
import {
  type AgentRunner,
  type AnyTool,
  checkPlanMode,
  errorResult,
  executeTool,
  executeToolThen,
  executeValidatedTool,
  type ToolContext,
  type ToolResult,
} from '@boxagnts/tools';
import type { ToolEndEvent, ToolStartEvent } from '../events.js';
import { capToolResult } from './cap-tool-result.js';
import { normalizeToolResult } from './normalize-tool-result.js';
import { isPreparableTool, type PreparedToolCall } from './prepared-tool-call.js';
import { toToolResultBlock } from './to-tool-result-block.js';

/** How a turn's tool calls run. */
export interface RunToolCallsOptions {
  tools: ReadonlyMap<string, AnyTool>;
  /** Base context; each call gets its own `toolCallId`. */
  context: ToolContext;
  turn: number;
  maxConcurrency: number;
  timeoutMs: number;
  emit(event: ToolStartEvent | ToolEndEvent): void;
  /** The sub-agent runner a call gets (tagged with its id), when the run has one. */
  agentsFor?(toolCallId: string): AgentRunner | undefined;
  /** Adds a note to a result (loop detection); returns the result to keep. */
  annotate?(call: ToolUseBlock, result: ToolResult): ToolResult;
  /** Characters of one result kept (head and tail); default unlimited. */
  maxResultChars?: number;
  /** Calls of one reply that run; each one past it gets an error result. Default unlimited. */
  maxCalls?: number;
}

function closeNames(name: string, tools: ReadonlyMap<string, AnyTool>): string {
  const lower = name.toLowerCase();
  const close = [...tools.keys()].filter((candidate) => {
    const other = candidate.toLowerCase();
    return other.includes(lower) || lower.includes(other);
  });
  const listed = close.length > 0 ? close : [...tools.keys()].slice(0, 20);
  return listed.length > 0 ? ` Available tools include: ${listed.join(', ')}.` : ' This run has no tools.';
}

function isConcurrencySafe(tool: AnyTool | undefined): boolean {
  if (tool === undefined) return true;
  return tool.concurrencySafe ?? tool.permission === 'read-only';
}

function withCall(options: RunToolCallsOptions, toolCallId: string): ToolContext {
  const agents = options.agentsFor?.(toolCallId);
  return agents === undefined ? { ...options.context, toolCallId } : { ...options.context, toolCallId, agents };
}

/** The refusal of a call that cannot run at all (no such tool, unusable arguments, plan mode), if any. */
function refusalOf(
  call: ToolUseBlock,
  tool: AnyTool | undefined,
  options: RunToolCallsOptions,
): ToolResult | undefined {
  if (tool === undefined) {
    return errorResult(`There is no tool named "${call.name}".${closeNames(call.name, options.tools)}`);
  }
  if (call.inputError !== undefined) {
    return errorResult(
      `The arguments of your "${call.name}" call could not be used: ${call.inputError.message} Send the arguments as one valid JSON object.`,
    );
  }
  return options.context.mode === undefined ? undefined : checkPlanMode(tool, options.context);
}

/**
 * Starts one call: emits `tool-start` and resolves to the tool's result (an error result when it
 * cannot run). A call the pre-phase prepared runs its prepared execution; plan mode is checked
 * again here, since an earlier call of the turn may have changed the mode.
 */
function startOne(call: ToolUseBlock, options: RunToolCallsOptions, prepared?: PreparedToolCall): Promise<ToolResult> {
  options.emit({ type: 'tool-start', turn: options.turn, toolCallId: call.id, name: call.name, input: call.input });
  const tool = options.tools.get(call.name);
  const refused = refusalOf(call, tool, options);
  if (refused !== undefined) return Promise.resolve(refused);
  const found = tool as AnyTool;
  const timeoutMs = found.timeoutMs ?? options.timeoutMs;
  if (prepared === undefined) return executeTool(found, call.input, withCall(options, call.id), { timeoutMs });
  if (!prepared.run) return Promise.resolve(prepared.result);
  // `prepare` validated the input and settled on the one to run: no second validation here.
  const allowed: AnyTool = { ...found, execute: (_input: unknown, context: ToolContext) => prepared.execute(context) };
  return executeValidatedTool(allowed, call.input, withCall(options, call.id), { timeoutMs });
}

/** Ends one call: the loop-detection note, `tool-end`, and the `tool_result` block. */
function finishOne(
  call: ToolUseBlock,
  options: RunToolCallsOptions,
  started: number,
  toolResult: ToolResult,
): ToolResultBlock {
  // Whatever the tool resolved to: string content becomes a text block, other shapes an error result.
  const usable = normalizeToolResult(call.name, toolResult);
  const bounded = options.maxResultChars === undefined ? usable : capToolResult(usable, options.maxResultChars);
  const result = options.annotate ? options.annotate(call, bounded) : bounded;
  options.emit({
    type: 'tool-end',
    turn: options.turn,
    toolCallId: call.id,
    name: call.name,
    input: call.input,
    result,
    durationMs: performance.now() - started,
  });
  return toToolResultBlock(call.id, result);
}

async function runOne(
  call: ToolUseBlock,
  options: RunToolCallsOptions,
  prepared?: PreparedToolCall,
): Promise<ToolResultBlock> {
  const started = performance.now();
  return finishOne(call, options, started, await startOne(call, options, prepared));
}

/**
 * `preparing`, or a "cancelled" refusal as soon as the run's signal aborts: a check that waits on
 * a user who never answers must not hold a cancelled run (as `executeTool` does for `execute`).
 */
function untilCancelled(
  preparing: Promise<PreparedToolCall>,
  call: ToolUseBlock,
  options: RunToolCallsOptions,
): Promise<PreparedToolCall> {
  const signal = options.context.signal;
  if (signal === undefined) return preparing;
  return new Promise((resolve, reject) => {
    const cancelled = () =>
      resolve({ run: false, result: errorResult(`Tool "${call.name}" was cancelled before it ran.`) });
    // The check itself may have aborted the run before it returned.
    if (signal.aborted) return cancelled();
    signal.addEventListener('abort', cancelled, { once: true });
    preparing.then(
      (prepared) => {
        signal.removeEventListener('abort', cancelled);
        resolve(prepared);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', cancelled);
        reject(error);
      },
    );
  });
}

/**
 * The pre-phase of a turn with several calls: `prepare` of every call whose tool has one, one after
 * another in the model's order, before any call runs. Returns `undefined` when no tool of the turn
 * has the seam (the turn runs as before). A `prepare` that throws refuses its call with an error
 * result; once the run is cancelled the remaining calls are left to `execute`, which reports it.
 */
async function prepareCalls(
  calls: readonly ToolUseBlock[],
  options: RunToolCallsOptions,
): Promise<Array<PreparedToolCall | undefined> | undefined> {
  let prepared: Array<PreparedToolCall | undefined> | undefined;
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index] as ToolUseBlock;
    const tool = options.tools.get(call.name);
    if (!isPreparableTool(tool) || refusalOf(call, tool, options) !== undefined) continue;
    if (options.context.signal?.aborted === true) break;
    prepared ??= new Array(calls.length);
    try {
      prepared[index] = await untilCancelled(tool.prepare(call.input, withCall(options, call.id)), call, options);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      prepared[index] = {
        run: false,
        result: errorResult(`Tool "${call.name}" was not run: checking the call failed (${reason}).`),
      };
    }
  }
  return prepared;
}

/**
 * Where {@link startToolCalls} reports a turn's results (the loop's event buffer): `hold` as the
 * calls start, then `settle` once with the `tool_result` blocks, or `failed` with what went wrong
 * (a programmer error such as a schema that throws); or `watch` a promise of them instead.
 */
export interface ToolCallsSink {
  hold(): void;
  settle(value: unknown, failed: boolean): void;
  watch(work: Promise<unknown>): void;
}

/**
 * One call run on its own, its block handed to `sink` from the callback that gets the tool's result
 * (no promise between the tool and the sink: one microtask hop per call instead of three).
 */
function startSingle(
  call: ToolUseBlock,
  options: RunToolCallsOptions,
  sink: Pick<ToolCallsSink, 'hold' | 'settle'>,
): void {
  sink.hold();
  const started = performance.now();
  const onResult = (result: ToolResult): void => {
    let block: ToolResultBlock;
    try {
      block = finishOne(call, options, started, result);
    } catch (error) {
      sink.settle(error, true);
      return;
    }
    sink.settle([block], false);
  };
  try {
    options.emit({ type: 'tool-start', turn: options.turn, toolCallId: call.id, name: call.name, input: call.input });
    const tool = options.tools.get(call.name);
    const refused = refusalOf(call, tool, options);
    if (refused !== undefined) {
      onResult(refused);
      return;
    }
    const found = tool as AnyTool;
    // The start time doubles as the timeout's: one clock read fewer per call.
    executeToolThen(found, call.input, withCall(options, call.id), onResult, {
      timeoutMs: found.timeoutMs ?? options.timeoutMs,
      startedAt: started,
    });
  } catch (error) {
    // Thrown before the tool's result was handed over (a schema that throws): the turn fails with it.
    sink.settle(error, true);
  }
}

/**
 * Starts the tool calls of one assistant message, as {@link runToolCalls} runs them, reporting to
 * `sink`: a single call through the callback path, several through the groups.
 */
export function startToolCalls(
  calls: readonly ToolUseBlock[],
  options: RunToolCallsOptions,
  sink: ToolCallsSink,
): void {
  if (calls.length === 1 && (options.maxCalls === undefined || options.maxCalls >= 1))
    startSingle(calls[0] as ToolUseBlock, options, sink);
  else sink.watch(runToolCalls(calls, options));
}

/**
 * Runs the tool calls of one assistant message: consecutive concurrency-safe calls (read-only by
 * default) together up to the cap, every other call alone and in order. Returns exactly one
 * `tool_result` per call, in the model's order. Never throws: unknown tools, unusable arguments,
 * failures, timeouts and cancellation are error results.
 */
export function runToolCalls(calls: readonly ToolUseBlock[], options: RunToolCallsOptions): Promise<ToolResultBlock[]> {
  if (options.maxCalls !== undefined && calls.length > options.maxCalls)
    return runCapped(calls, options, options.maxCalls);
  if (calls.length !== 1) return runInGroups(calls, options);
  // The common case, one call: no workers, and the block is made in the callback that gets the
  // tool's result (no async function of its own awaiting another).
  return new Promise((resolve, reject) => {
    const call = calls[0] as ToolUseBlock;
    startSingle(call, options, {
      hold: noop,
      settle: (value, failed) => (failed ? reject(value) : resolve(value as ToolResultBlock[])),
    });
  });
}

function noop(): void {}

async function runInGroups(calls: readonly ToolUseBlock[], options: RunToolCallsOptions): Promise<ToolResultBlock[]> {
  const prepared = await prepareCalls(calls, options);
  const results: ToolResultBlock[] = new Array(calls.length);
  let index = 0;
  while (index < calls.length) {
    const call = calls[index] as ToolUseBlock;
    if (!isConcurrencySafe(options.tools.get(call.name))) {
      results[index] = await runOne(call, options, prepared?.[index]);
      index++;
      continue;
    }
    let end = index;
    while (end < calls.length && isConcurrencySafe(options.tools.get((calls[end] as ToolUseBlock).name))) end++;
    let next = index;
    const stop = end;
    const worker = async () => {
      while (next < stop) {
        const mine = next++;
        results[mine] = await runOne(calls[mine] as ToolUseBlock, options, prepared?.[mine]);
      }
    };
    const workers = Math.min(options.maxConcurrency, stop - index);
    await Promise.all(Array.from({ length: workers }, worker));
    index = stop;
  }
  return results;
}

/** Runs the first `max` calls; every later one gets an error result (still one result per call, in order). */
async function runCapped(
  calls: readonly ToolUseBlock[],
  options: RunToolCallsOptions,
  max: number,
): Promise<ToolResultBlock[]> {
  const results = await runInGroups(calls.slice(0, max), options);
  for (let index = max; index < calls.length; index++) {
    const call = calls[index] as ToolUseBlock;
    options.emit({ type: 'tool-start', turn: options.turn, toolCallId: call.id, name: call.name, input: call.input });
    const refused = errorResult(
      `Not run: this reply asked for ${calls.length} tool calls and at most ${max} run per reply. ` +
        'Make fewer calls per reply (the first ones ran), and repeat this one later if it is still needed.',
    );
    results.push(finishOne(call, options, performance.now(), refused));
  }
  return results;
}
