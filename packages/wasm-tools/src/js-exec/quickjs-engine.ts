import {
  type CustomizeVariantOptions,
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
  RELEASE_SYNC,
} from 'quickjs-emscripten';
import { HeadTailBuffer } from '../bash/head-tail-buffer.js';
import { guestPrelude, printerSource } from './guest-prelude.js';

/** Limits of one evaluation. */
export interface JsEngineLimits {
  timeoutMs: number;
  /** Memory one call may use: the cap of the WebAssembly memory (see {@link wasmMemoryPages}), also QuickJS's heap limit. */
  memoryLimitBytes: number;
  maxStackBytes: number;
  /** Budget for console output and the printed result, in bytes. */
  maxOutputBytes: number;
}

/**
 * How an evaluation ended. `busy`: it never began, because no thread was free (or could start)
 * within the tool's `startTimeoutMs`.
 */
export type JsOutcome = 'ok' | 'error' | 'timed-out' | 'aborted' | 'out-of-memory' | 'stack-overflow' | 'busy';

/** What one evaluation produced. */
export interface JsRun {
  outcome: JsOutcome;
  /** The printed value of the last expression, the module's exports or the returned value. */
  result?: string;
  /** For `error`: name, message and the first stack lines. */
  error?: string;
  /** Console output in order; `warn` and `error` lines prefixed `[warn]` / `[error]`. */
  console: string;
  truncated: boolean;
  durationMs: number;
  /** Whether the engine was rebuilt after this run (stack overflow, memory, a fatal error). */
  recreated: boolean;
}

const PAGE_BYTES = 64 * 1024;
/** The QuickJS build's own initial memory (256 pages); a provided memory must start there. */
const INITIAL_PAGES = 256;
/** Pending promise jobs run per batch before the host yields to its event loop (so aborts land). */
const JOBS_PER_BATCH = 1000;
/** Time allowed to print a result or an error once the code itself has finished or been stopped. */
const FORMAT_GRACE_MS = 100;

/** Room above the memory limit for the engine itself (code, stack, runtime), in bytes. */
const ENGINE_BYTES = 16 * 1024 * 1024;

/**
 * The hard cap of the WebAssembly linear memory, in 64 KiB pages: the memory limit plus 16 MiB
 * for the engine. QuickJS's own heap limit is loose in this build (it does not count allocator
 * overhead, and large strings and typed arrays pass it by far), so this cap is what really bounds
 * a call: an allocation past it fails and the call ends as out of memory.
 */
export function wasmMemoryPages(memoryLimitBytes: number): number {
  return Math.max(INITIAL_PAGES, Math.ceil((memoryLimitBytes + ENGINE_BYTES) / PAGE_BYTES));
}

/** The memory type quickjs-emscripten accepts (Node's types do not declare `WebAssembly.Memory`). */
type WasmMemory = NonNullable<CustomizeVariantOptions['wasmMemory']>;
type MemoryConstructor = new (descriptor: { initial: number; maximum: number }) => WasmMemory;

/** `WebAssembly.Memory`, reached through `globalThis` because Node's types declare the namespace as types only. */
function createMemory(initial: number, maximum: number): WasmMemory {
  const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: MemoryConstructor } }).WebAssembly;
  return new Memory({ initial, maximum });
}

/** An evaluation before the host adds console output and timings; `bareThrow` marks a thrown non-error. */
type Evaluation = Omit<JsRun, 'console' | 'truncated' | 'durationMs' | 'recreated'> & { bareThrow?: boolean };

interface Engine {
  module: QuickJSWASMModule;
  runtime: QuickJSRuntime;
}

function isPromise(context: QuickJSContext, handle: QuickJSHandle): boolean {
  const state = context.getPromiseState(handle);
  if (state.type === 'fulfilled' && state.notAPromise === true) return false;
  if (state.type === 'fulfilled') state.value.dispose();
  if (state.type === 'rejected') state.error.dispose();
  return true;
}

const UNPRINTABLE = '(the value could not be printed)';

/** Prints numbers, booleans, `undefined`, `null` and short strings on the host, skipping the in-sandbox printer. */
function printPrimitive(context: QuickJSContext, value: QuickJSHandle, maxLength: number): string | undefined {
  const type = context.typeof(value);
  if (type === 'undefined') return 'undefined';
  if (type === 'number') return String(context.getNumber(value));
  if (type === 'boolean') return context.dump(value) === true ? 'true' : 'false';
  if (type === 'object' && context.sameValue(value, context.null)) return 'null';
  if (type === 'string') {
    const length = context.getProp(value, 'length').consume((size) => context.getNumber(size));
    return length <= maxLength ? context.getString(value) : undefined;
  }
  return undefined;
}

/** A string property's value when it is a short string (compared by the host), else `''`; disposes the handle. */
function shortString(context: QuickJSContext, handle: QuickJSHandle): string {
  return handle.consume((value) => {
    if (context.typeof(value) !== 'string') return '';
    const length = context.getProp(value, 'length').consume((size) => context.getNumber(size));
    return length <= 64 ? context.getString(value) : '';
  });
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs JavaScript in QuickJS compiled to WebAssembly: one module and runtime reused across calls
 * (a call costs a fresh context, well under a millisecond), a fresh context per call (no state
 * carries over), no host globals, a deadline checked by the interrupt handler, a heap limit, a
 * stack limit and a capped linear memory. After a stack overflow, running out of memory or a
 * fatal error the module is thrown away and the next call builds a new one (about 10 ms).
 * Calls are serialised: they share one runtime.
 */
export class QuickJsEngine {
  readonly #limits: JsEngineLimits;
  #engine: Promise<Engine> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #deadline = 0;
  #signal: AbortSignal | undefined;

  readonly #prelude: string;
  readonly #printer: string;

  constructor(limits: JsEngineLimits) {
    this.#limits = limits;
    this.#prelude = guestPrelude(limits.maxOutputBytes);
    this.#printer = printerSource(Math.max(64, Math.floor(limits.maxOutputBytes)));
  }

  /**
   * Evaluates `code` in a fresh context; never throws for anything the code does. `onRunning` is
   * called when the evaluation (and its deadline) begins, after the engine is built.
   */
  run(code: string, signal: AbortSignal, onRunning?: () => void): Promise<JsRun> {
    const next = this.#queue.then(() => this.#runNow(code, signal, onRunning));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Drops the module; the next call builds a new one. The old one is not disposed but left to the
   * garbage collector: after a fatal error its runtime still holds objects, and QuickJS aborts
   * (with a message on stderr) when such a runtime is freed.
   */
  reset(): void {
    this.#engine = undefined;
  }

  #build(): Promise<Engine> {
    const memory = createMemory(INITIAL_PAGES, wasmMemoryPages(this.#limits.memoryLimitBytes));
    const engine = newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory })).then((module) => {
      const runtime = module.newRuntime();
      runtime.setMemoryLimit(this.#limits.memoryLimitBytes);
      runtime.setMaxStackSize(this.#limits.maxStackBytes);
      runtime.setInterruptHandler(() => Date.now() > this.#deadline || this.#signal?.aborted === true);
      return { module, runtime };
    });
    engine.catch(() => {
      if (this.#engine === engine) this.#engine = undefined;
    });
    return engine;
  }

  async #runNow(code: string, signal: AbortSignal, onRunning: (() => void) | undefined): Promise<JsRun> {
    const started = Date.now();
    const output = new HeadTailBuffer(this.#limits.maxOutputBytes);
    const done = (partial: Omit<JsRun, 'console' | 'truncated' | 'durationMs' | 'recreated'>, recreate = false) => {
      if (recreate) this.reset();
      return {
        ...partial,
        console: output.toString(),
        truncated: output.truncated,
        durationMs: Date.now() - started,
        recreated: recreate,
      };
    };
    if (signal.aborted) return done({ outcome: 'aborted' });
    this.#engine ??= this.#build();
    const { module, runtime } = await this.#engine;
    this.#signal = signal;
    this.#deadline = Date.now() + this.#limits.timeoutMs;
    onRunning?.();
    // A failure without a proper error object (QuickJS could not allocate one) or a trap inside the
    // module, after the memory grew in this call or while it is at its cap, is the memory running out.
    const capBytes = wasmMemoryPages(this.#limits.memoryLimitBytes) * PAGE_BYTES;
    const bytesBefore = module.getWasmMemory().buffer.byteLength;
    const memoryRanOut = () => {
      const bytes = module.getWasmMemory().buffer.byteLength;
      return bytes > bytesBefore || bytes >= capBytes - PAGE_BYTES * 16;
    };
    try {
      const context = runtime.newContext();
      let run = await this.#evaluate(context, code, output, signal);
      if (run.outcome === 'error' && run.bareThrow === true && memoryRanOut()) run = { outcome: 'out-of-memory' };
      delete run.bareThrow;
      // Jobs left in the queue (a stopped promise chain) belong to this context: only a new module clears them.
      const recreate = run.outcome === 'out-of-memory' || run.outcome === 'stack-overflow' || runtime.hasPendingJob();
      if (recreate) return done(run, true);
      try {
        context.dispose();
      } catch {
        return done(run, true);
      }
      return done(run);
    } catch (error) {
      // A host-side throw (the JS engine's own stack, a trap in the module) leaves the module unusable.
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      if (/call stack|stack overflow/i.test(message)) return done({ outcome: 'stack-overflow' }, true);
      if (memoryRanOut()) return done({ outcome: 'out-of-memory' }, true);
      return done({ outcome: 'error', error: `The JavaScript engine failed: ${message}` }, true);
    } finally {
      this.#signal = undefined;
    }
  }

  async #evaluate(
    context: QuickJSContext,
    code: string,
    output: HeadTailBuffer,
    signal: AbortSignal,
  ): Promise<Evaluation> {
    const helpers = this.#installPrelude(context, output);
    try {
      let result = context.evalCode(code, 'main.js');
      if (result.error !== undefined && /\b(await|return)\b/.test(code) && this.#isSyntaxError(context, result.error)) {
        const wrapped = context.evalCode(`(async () => {${code}\n})()`, 'main.js');
        if (wrapped.error === undefined || !this.#isSyntaxError(context, wrapped.error)) {
          result.error.dispose();
          result = wrapped;
        } else {
          wrapped.error.dispose();
        }
      }
      if (result.error !== undefined)
        return result.error.consume((error) => this.#failure(context, helpers, error, signal));
      let value = result.value;
      await this.#drainJobs(context, signal);
      const stopped = this.#stopped(signal);
      if (stopped !== undefined && context.runtime.hasPendingJob()) {
        value.dispose();
        return { outcome: stopped };
      }
      if (isPromise(context, value)) {
        const state = context.getPromiseState(value);
        value.dispose();
        if (state.type === 'pending') {
          if (this.#stopped(signal) !== undefined) return { outcome: this.#stopped(signal) ?? 'timed-out' };
          return {
            outcome: 'error',
            error:
              'The returned promise never settled: js_exec has no timers or I/O, so only already-resolvable promises finish.',
          };
        }
        if (state.type === 'rejected')
          return state.error.consume((error) => this.#failure(context, helpers, error, signal));
        value = state.value;
      }
      return value.consume((handle) => ({
        outcome: 'ok' as const,
        result: this.#print(context, helpers, 'format', handle),
      }));
    } finally {
      try {
        helpers.dispose();
      } catch {
        // After a fatal error the module is dropped anyway; keep the original failure.
      }
    }
  }

  #installPrelude(context: QuickJSContext, output: HeadTailBuffer): QuickJSHandle {
    const write = context.newFunction('write', (levelHandle, textHandle) => {
      const level = context.getString(levelHandle);
      const text = context.getString(textHandle);
      output.write(`${level === '' ? '' : `[${level}] `}${text}\n`);
    });
    const source = context.newFunction('printerSource', () => context.newString(this.#printer));
    const install = context.unwrapResult(context.evalCode(this.#prelude, 'prelude.js'));
    const helpers = context.unwrapResult(context.callFunction(install, context.undefined, write, source));
    install.dispose();
    write.dispose();
    source.dispose();
    return helpers;
  }

  async #drainJobs(context: QuickJSContext, signal: AbortSignal): Promise<void> {
    const runtime = context.runtime;
    while (runtime.hasPendingJob()) {
      if (this.#stopped(signal) !== undefined) return;
      const executed = runtime.executePendingJobs(JOBS_PER_BATCH);
      executed.dispose();
      await yieldToEventLoop();
    }
  }

  #stopped(signal: AbortSignal): 'aborted' | 'timed-out' | undefined {
    if (signal.aborted) return 'aborted';
    if (Date.now() > this.#deadline) return 'timed-out';
    return undefined;
  }

  #isSyntaxError(context: QuickJSContext, error: QuickJSHandle): boolean {
    return context.typeof(error) === 'object' && shortString(context, context.getProp(error, 'name')) === 'SyntaxError';
  }

  #failure(context: QuickJSContext, helpers: QuickJSHandle, error: QuickJSHandle, signal: AbortSignal): Evaluation {
    const isObject = context.typeof(error) === 'object' && !context.sameValue(error, context.null);
    const message = isObject ? shortString(context, context.getProp(error, 'message')) : '';
    if (message === 'interrupted') return { outcome: this.#stopped(signal) ?? 'timed-out' };
    if (message === 'out of memory') return { outcome: 'out-of-memory' };
    if (message === 'stack overflow') return { outcome: 'stack-overflow' };
    const bareThrow = !isObject || (message === '' && shortString(context, context.getProp(error, 'name')) === '');
    return { outcome: 'error', error: this.#print(context, helpers, 'describeError', error), bareThrow };
  }

  /** Prints a value inside the VM with a short fresh deadline; a printer that fails yields a placeholder. */
  #print(
    context: QuickJSContext,
    helpers: QuickJSHandle,
    printer: 'format' | 'describeError',
    value: QuickJSHandle,
  ): string {
    if (printer === 'format') {
      const plain = printPrimitive(context, value, this.#limits.maxOutputBytes);
      if (plain !== undefined) return plain;
    }
    const deadline = this.#deadline;
    this.#deadline = Date.now() + FORMAT_GRACE_MS;
    try {
      const loaded = context.getProp(helpers, 'load').consume((load) => context.callFunction(load, helpers));
      if (loaded.error !== undefined) {
        loaded.error.dispose();
        return UNPRINTABLE;
      }
      const printed = loaded.value.consume((functions) =>
        context.getProp(functions, printer).consume((fn) => context.callFunction(fn, context.undefined, value)),
      );
      if (printed.error !== undefined) {
        printed.error.dispose();
        return UNPRINTABLE;
      }
      return printed.value.consume((handle) =>
        context.typeof(handle) === 'string' ? context.getString(handle) : UNPRINTABLE,
      );
    } finally {
      this.#deadline = deadline;
    }
  }
}
