import { defineTool, errorResult } from '@boxagnts/tools';
import { z } from 'zod';
import { THREAD_START_TIMEOUT_MS } from '../thread-pool/thread-pool.js';
import { formatJsResult } from './format-js-result.js';
import { runJsInThread } from './js-exec-thread.js';

/** Default time one evaluation may run, in milliseconds. */
export const JS_EXEC_DEFAULT_TIMEOUT_MS = 10_000;
/** Default QuickJS heap limit, in bytes (64 MiB). */
export const JS_EXEC_DEFAULT_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
/** Default QuickJS stack limit, in bytes (256 KiB: deep enough for ordinary recursion, caught before the host's own stack). */
export const JS_EXEC_DEFAULT_MAX_STACK_BYTES = 256 * 1024;
/** Default budget of console output and printed result shown to the model, in bytes. */
export const JS_EXEC_DEFAULT_MAX_OUTPUT_BYTES = 30_000;
/** Longest code accepted, in characters. */
export const JS_EXEC_MAX_CODE_LENGTH = 1_000_000;

/** Options of {@link createJsExecTool}. */
export interface JsExecToolOptions {
  /** Time one evaluation may run, in ms. Default {@link JS_EXEC_DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** QuickJS heap limit in bytes. Default {@link JS_EXEC_DEFAULT_MEMORY_LIMIT_BYTES}. */
  memoryLimitBytes?: number;
  /** QuickJS stack limit in bytes. Default {@link JS_EXEC_DEFAULT_MAX_STACK_BYTES}. */
  maxStackBytes?: number;
  /** Console output and result shown to the model, in bytes. Default {@link JS_EXEC_DEFAULT_MAX_OUTPUT_BYTES}. */
  maxOutputBytes?: number;
  /**
   * Time a call may wait for a free thread (and for a new thread to start and build its engine)
   * before it ends as `busy` without running, in ms. Default {@link THREAD_START_TIMEOUT_MS} (60 s).
   */
  startTimeoutMs?: number;
}

/** A js_exec configuration that cannot work; the message says what to change. */
export class JsExecConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsExecConfigError';
  }
}

const inputSchema = z.object({
  code: z
    .string()
    .min(1, 'Give the JavaScript code to run.')
    .max(JS_EXEC_MAX_CODE_LENGTH, `Code is limited to ${JS_EXEC_MAX_CODE_LENGTH} characters.`)
    .describe(
      'JavaScript to run. The value of the last expression is returned; with top-level await, use `return` for the result; with `export`, the exports are returned.',
    ),
});

const DESCRIPTION = [
  'Run JavaScript (ES2023) in an isolated QuickJS engine and get the console output and the value of the last expression.',
  'Use it for calculations, data transformation, parsing and checking logic.',
  'There is no file system, network, timers, process, require or fetch: only the language and its built-in objects',
  '(Math, JSON, Date, RegExp, Map, Set, typed arrays, promises; no Intl). console.log/info/debug/warn/error are captured.',
  'Each call starts from a clean state: nothing carries over between calls. Time, memory and recursion depth are limited.',
].join(' ');

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new JsExecConfigError(`js_exec option "${name}" must be a positive, finite number; got ${value}.`);
  }
  return value;
}

/**
 * Creates the `js_exec` tool: JavaScript evaluated in QuickJS compiled to WebAssembly on a pooled
 * worker thread (terminated if it runs past its deadline, so the host never blocks), a fresh
 * context per call on a reused engine, with no host globals and with time, memory, stack and
 * output limits.
 *
 * @example
 * const jsExec = createJsExecTool({ timeoutMs: 2_000 });
 * const result = await jsExec.execute({ code: '[1, 2, 3].map((n) => n * 2)' }, context);
 * // result text: "result: [2, 4, 6]"
 *
 * @throws {JsExecConfigError} when a limit is not a positive number.
 */
export function createJsExecTool(options: JsExecToolOptions = {}) {
  const limits = {
    timeoutMs: positive('timeoutMs', options.timeoutMs, JS_EXEC_DEFAULT_TIMEOUT_MS),
    memoryLimitBytes: positive('memoryLimitBytes', options.memoryLimitBytes, JS_EXEC_DEFAULT_MEMORY_LIMIT_BYTES),
    maxStackBytes: positive('maxStackBytes', options.maxStackBytes, JS_EXEC_DEFAULT_MAX_STACK_BYTES),
    maxOutputBytes: positive('maxOutputBytes', options.maxOutputBytes, JS_EXEC_DEFAULT_MAX_OUTPUT_BYTES),
  };
  const startTimeoutMs = positive('startTimeoutMs', options.startTimeoutMs, THREAD_START_TIMEOUT_MS);
  return defineTool({
    name: 'js_exec',
    description: DESCRIPTION,
    inputSchema,
    permission: 'execute',
    execute: async ({ code }, context) => {
      try {
        return formatJsResult(
          await runJsInThread(code, limits, context.signal, startTimeoutMs),
          limits.timeoutMs,
          startTimeoutMs,
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return errorResult(`js_exec could not start its JavaScript engine: ${message}`);
      }
    },
  });
}
