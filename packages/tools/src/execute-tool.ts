import type { JsonObject, ToolInputLimits } from '@boxagnts/api';
import { checkToolInputValue } from '@boxagnts/api/adapter-kit';
import type { z } from 'zod';
import type { AnyTool, ToolResult } from './tool.js';
import type { ToolContext } from './tool-context.js';
import { errorResult } from './tool-results.js';

/** Options of {@link executeTool}. */
export interface ExecuteToolOptions {
  /** Bounds on the raw input before it is validated (size and nesting depth). */
  limits?: ToolInputLimits;
  /** Overrides the tool's own `timeoutMs`. */
  timeoutMs?: number;
}

/** Options of {@link executeToolThen}: those of {@link executeTool}, and when the caller started the call. */
export interface ExecuteToolThenOptions extends ExecuteToolOptions {
  /**
   * When the caller started the call (a `performance.now()` time): the timeout counts from it, so a
   * caller that reads the clock for the call's duration anyway spares the call a second read.
   * Default: when the tool is started.
   */
  startedAt?: number;
}

const NO_OPTIONS: ExecuteToolThenOptions = {};

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => `- ${issue.path.length > 0 ? issue.path.join('.') : '(input)'}: ${issue.message}`)
    .join('\n');
}

function failed(tool: AnyTool, error: unknown): ToolResult {
  return errorResult(`Tool "${tool.name}" failed: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * One running call: settles once, with the tool's result, a timeout or a cancellation, and then
 * leaves the deadline watch and its signal's set of running calls. A call allocates no closures
 * for its guards.
 */
class GuardedCall {
  resolve: (result: ToolResult) => void = noop;
  settled = false;
  timedOut = false;
  /** When the call times out (`performance.now()` time, monotonic), or `Infinity`. */
  deadline = Number.POSITIVE_INFINITY;
  running: Set<GuardedCall> | undefined;
  // The call's own signal (the run's, plus this call's timeout) is made only when the tool reads
  // it: most tools never do, and an AbortController per call is a measurable part of a loop turn.
  controller: AbortController | undefined;

  constructor(
    readonly tool: AnyTool,
    readonly outer: AbortSignal,
    readonly timeoutMs: number | undefined,
  ) {}

  signal(): AbortSignal {
    let controller = this.controller;
    if (controller === undefined) {
      controller = new AbortController();
      this.controller = controller;
      if (this.timedOut) controller.abort(new Error('timeout'));
      else if (this.outer.aborted) controller.abort(this.outer.reason);
    }
    return controller.signal;
  }

  finish(result: ToolResult): void {
    if (this.settled) return;
    this.settled = true;
    if (this.deadline !== Number.POSITIVE_INFINITY) deadlines.remove(this);
    this.running?.delete(this);
    this.resolve(result);
  }

  /** The run's signal aborted: abort the call's signal and answer "cancelled". */
  cancel(): void {
    if (this.settled) return;
    this.controller?.abort(this.outer.reason);
    this.finish(errorResult(`Tool "${this.tool.name}" was cancelled.`));
  }

  /** The deadline passed: abort the call's signal and answer "timed out". */
  expire(): void {
    if (this.settled) return;
    this.timedOut = true;
    this.controller?.abort(new Error('timeout'));
    this.finish(errorResult(`Tool "${this.tool.name}" timed out after ${this.timeoutMs} ms and was stopped.`));
  }
}

function noop(): void {}

/**
 * The deadlines of running calls, watched by one shared timer instead of a timer per call: a call
 * only joins and leaves a set (a `setTimeout` and `clearTimeout` per call made and dropped Node's
 * timer list for that duration every time). The timer is armed for the earliest deadline; when it
 * fires it expires what is due and re-arms for the next. It keeps the process alive only while a
 * call with a deadline is running, as a per-call timer would.
 */
class DeadlineWatch {
  private readonly calls = new Set<GuardedCall>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private firesAt = Number.POSITIVE_INFINITY;
  private readonly fire = (): void => {
    this.timer = undefined;
    this.firesAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const call of this.calls) {
      if (call.deadline <= now) call.expire();
      else if (call.deadline < next) next = call.deadline;
    }
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
  };

  add(call: GuardedCall): void {
    if (this.calls.size === 0) this.timer?.ref();
    this.calls.add(call);
    if (call.deadline < this.firesAt) this.arm(call.deadline);
  }

  remove(call: GuardedCall): void {
    this.calls.delete(call);
    // The timer stays armed (re-arming per call is what this avoids) but holds nothing open.
    if (this.calls.size === 0) this.timer?.unref();
  }

  private arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.firesAt = at;
    this.timer = setTimeout(this.fire, Math.max(1, Math.ceil(at - performance.now())));
    if (this.calls.size === 0) this.timer.unref();
  }
}

const deadlines = new DeadlineWatch();

/**
 * The running calls of each signal, behind one `abort` listener per signal (added with the
 * signal's first call and kept for its lifetime) instead of a listener added and removed per call.
 */
const runningBySignal = new WeakMap<AbortSignal, Set<GuardedCall>>();

function runningOn(signal: AbortSignal): Set<GuardedCall> {
  let running = runningBySignal.get(signal);
  if (running === undefined) {
    const calls = new Set<GuardedCall>();
    running = calls;
    runningBySignal.set(signal, calls);
    signal.addEventListener(
      'abort',
      () => {
        for (const call of calls) call.cancel();
      },
      { once: true },
    );
  }
  return running;
}

const CALL = Symbol('boxagnts.tool-call');

function callSignal(this: { [CALL]: GuardedCall }): AbortSignal {
  return this[CALL].signal();
}

// The context's `signal` is an accessor (made on first read); assignments to it are ignored, as the
// copy of the context below assigns every property, `signal` included.
const SIGNAL_ACCESSOR: PropertyDescriptor = { get: callSignal, set: noop, enumerable: true, configurable: true };

/**
 * The context the tool gets: the caller's own enumerable properties (what a spread copies) with a
 * lazy `signal`. The accessor is one shared function defined on a fresh object before the copy, which
 * keeps the object in V8's fast mode (redefining a copied data property as an accessor would not).
 */
function callContextOf(context: ToolContext, call: GuardedCall): ToolContext {
  const callContext = {};
  Object.defineProperty(callContext, CALL, { value: call });
  Object.defineProperty(callContext, 'signal', SIGNAL_ACCESSOR);
  return Object.assign(callContext, context);
}

function run(
  tool: AnyTool,
  input: unknown,
  context: ToolContext,
  timeoutMs: number | undefined,
  startedAt: number | undefined,
  onResult: (result: ToolResult) => void,
): void {
  const outer = context.signal;
  const call = new GuardedCall(tool, outer, timeoutMs);
  const callContext = callContextOf(context, call);
  call.resolve = onResult;
  if (timeoutMs !== undefined && timeoutMs > 0) {
    call.deadline = (startedAt ?? performance.now()) + timeoutMs;
    deadlines.add(call);
  }
  const running = runningOn(outer);
  call.running = running;
  running.add(call);
  let result: Promise<ToolResult>;
  try {
    result = tool.execute(input as never, callContext);
  } catch (error) {
    call.finish(failed(tool, error));
    return;
  }
  result.then(
    (value) => call.finish(value),
    (error: unknown) => call.finish(failed(tool, error)),
  );
}

/**
 * A call's input after {@link validateToolInput}: usable (`input` as given, bounded; `value` what
 * the tool's schema made of it, defaults applied) or refused with the error result the model gets.
 */
export type ValidatedToolInput = { ok: true; input: JsonObject; value: unknown } | { ok: false; result: ToolResult };

/**
 * Bounds a call's input (size, nesting depth) and parses it with the tool's `inputSchema`: the one
 * validation of a call. {@link executeTool} calls it; a wrapper that must see the validated input
 * before the tool runs (a tool set's permission checks) calls it itself, then runs the tool with
 * {@link executeValidatedTool}, so no input is parsed twice.
 */
export function validateToolInput(tool: AnyTool, input: unknown, limits?: ToolInputLimits): ValidatedToolInput {
  const bounded = checkToolInputValue(input ?? {}, limits);
  if (!bounded.ok) {
    return {
      ok: false,
      result: errorResult(`Invalid input for tool "${tool.name}": ${bounded.error.message}. Send a smaller input.`),
    };
  }
  const parsed = tool.inputSchema.safeParse(bounded.input);
  if (!parsed.success) {
    return {
      ok: false,
      result: errorResult(
        `Invalid input for tool "${tool.name}":\n${describeIssues(parsed.error)}\nFix the input and call the tool again.`,
      ),
    };
  }
  return { ok: true, input: bounded.input, value: parsed.data };
}

/**
 * A call from its input on: validated unless `validated` (or the tool validates its own input),
 * then run; the result handed to `onResult`. The options are arguments, so each public function
 * passes exactly the options it declares.
 */
function start(
  tool: AnyTool,
  input: unknown,
  validated: boolean,
  context: ToolContext,
  onResult: (result: ToolResult) => void,
  limits: ToolInputLimits | undefined,
  timeoutMs: number | undefined,
  startedAt: number | undefined,
): void {
  let value = input;
  if (!validated) {
    if (tool.validatesOwnInput === true) value = input ?? {};
    else {
      const checked = validateToolInput(tool, input, limits);
      if (!checked.ok) {
        onResult(checked.result);
        return;
      }
      value = checked.value;
    }
  }
  if (context.signal.aborted) {
    onResult(errorResult(`Tool "${tool.name}" was not run: the run was cancelled.`));
    return;
  }
  run(tool, value, context, timeoutMs ?? tool.timeoutMs, startedAt, onResult);
}

/**
 * Runs a call whose input {@link validateToolInput} already accepted (`value` is its output): the
 * call aborted on the context's signal or the timeout, and every failure (a throw, a timeout, an
 * abort) turned into an error result. Never throws.
 */
export function executeValidatedTool(
  tool: AnyTool,
  value: unknown,
  context: ToolContext,
  options: Pick<ExecuteToolOptions, 'timeoutMs'> = NO_OPTIONS,
): Promise<ToolResult> {
  return new Promise((resolve) => start(tool, value, true, context, resolve, undefined, options.timeoutMs, undefined));
}

/**
 * {@link executeTool} with the result handed to `onResult` instead of a promise: the same bounds,
 * validation, timeout, cancellation and error results, and `onResult` called exactly once with the
 * result executeTool's promise would resolve to (at once, before this returns, when the call is
 * refused without running). For a caller that goes on from a callback anyway (an agent loop): it
 * spares a promise and a turn of the microtask queue per call. Throws what `executeTool` rejects
 * with (a schema that throws); `onResult` must not throw.
 *
 * @example
 * executeToolThen(tool, call.input, context, (result) => results.push(result), { timeoutMs: 30_000 });
 */
export function executeToolThen(
  tool: AnyTool,
  input: unknown,
  context: ToolContext,
  onResult: (result: ToolResult) => void,
  options: ExecuteToolThenOptions = NO_OPTIONS,
): void {
  start(tool, input, false, context, onResult, options.limits, options.timeoutMs, options.startedAt);
}

/**
 * Runs one tool call the way the loop must: input bounded (size, depth) and validated first, the
 * call aborted on the context's signal or the timeout, and every failure (bad input, a throw, a
 * timeout, an abort) turned into an error result the model can read. Never throws. A tool that
 * declares `validatesOwnInput` (a tool set's guarded tool, which validates before its checks) gets
 * the input as given, so the call is still validated once.
 */
export function executeTool(
  tool: AnyTool,
  input: unknown,
  context: ToolContext,
  options: ExecuteToolOptions = NO_OPTIONS,
): Promise<ToolResult> {
  // A schema that throws (a refinement's bug) is a programmer error: the promise rejects, as before.
  return new Promise((resolve) =>
    start(tool, input, false, context, resolve, options.limits, options.timeoutMs, undefined),
  );
}
