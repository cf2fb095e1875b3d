import type { JsonObject } from '@boxagnts/api';
import type { ToolResult } from '@boxagnts/tools';
import type {
  AfterToolEvent,
  AfterToolHook,
  AfterToolOutcome,
  BeforeToolEvent,
  BeforeToolHook,
  BeforeToolOutcome,
  FunctionHook,
  HookFailure,
} from '../types.js';
import type { AfterHookDecision, BeforeHookDecision, HookAnswer } from './hook-answer.js';
import { toAfterDecision, toBeforeDecision } from './hook-decision.js';
import { hookLabel, isCommandHook } from './hook-label.js';
import { hookMatches } from './hook-matcher.js';
import { runAfterCommandHook, runBeforeCommandHook } from './run-command-hook.js';
import { runFunctionHook } from './run-function-hook.js';

/** Whether an input is usable for the tool; checked after every rewrite so the next hook sees a valid input. */
export type InputCheck = (input: JsonObject) => { ok: true } | { ok: false; message: string };

/** Options of {@link runBeforeToolHooks} and {@link runAfterToolHooks}. */
export interface RunHooksOptions {
  /** Told about every hook that failed, timed out or answered nonsense; the call goes on. */
  onFailure?: (failure: HookFailure) => void;
  /**
   * Folders sandboxed tools can write, besides the call's own root: a command hook whose file or
   * working folder lies inside one is not run (before-tool: the call is blocked).
   */
  roots?: readonly string[];
}

/** Where the before-tool hooks leave a call. */
export type BeforeHooksResult =
  | { kind: 'continue'; input: JsonObject; rewrittenBy: string[] }
  | { kind: 'block'; reason: string; hook: string }
  | { kind: 'invalid-input'; message: string; hook: string };

async function beforeAnswer(
  hook: BeforeToolHook,
  event: BeforeToolEvent,
  label: string,
  roots: readonly string[],
): Promise<HookAnswer<BeforeHookDecision>> {
  if (isCommandHook(hook)) return runBeforeCommandHook(hook, event, label, roots);
  const run = await runFunctionHook(
    hook as FunctionHook<BeforeToolEvent, BeforeToolOutcome>,
    event,
    event.context.signal,
  );
  return run.ok ? toBeforeDecision(run.value, label) : run;
}

async function afterAnswer(
  hook: AfterToolHook,
  event: AfterToolEvent,
  label: string,
  roots: readonly string[],
): Promise<HookAnswer<AfterHookDecision>> {
  if (isCommandHook(hook)) return runAfterCommandHook(hook, event, label, roots);
  const run = await runFunctionHook(
    hook as FunctionHook<AfterToolEvent, AfterToolOutcome>,
    event,
    event.context.signal,
  );
  return run.ok ? toAfterDecision(run.value) : run;
}

/**
 * Runs the before-tool hooks that match the tool, in order: a block stops the call, a rewritten
 * input (checked with `checkInput`) is what the next hook sees, and a failing hook is reported
 * through `onFailure` and skipped.
 *
 * @example
 * const outcome = await runBeforeToolHooks(hooks.beforeTool ?? [], { tool, input, context }, checkInput, { onFailure });
 */
export async function runBeforeToolHooks(
  hooks: readonly BeforeToolHook[],
  event: BeforeToolEvent,
  checkInput: InputCheck,
  options: RunHooksOptions = {},
): Promise<BeforeHooksResult> {
  let input = event.input;
  const rewrittenBy: string[] = [];
  for (const [index, hook] of hooks.entries()) {
    if (!hookMatches(hook.matcher, event.tool.name)) continue;
    if (event.context.signal.aborted) break;
    const label = hookLabel('before', index, hook);
    const answer = await beforeAnswer(hook, { ...event, input }, label, options.roots ?? []);
    if (!answer.ok) {
      options.onFailure?.({ phase: 'before', hook: label, tool: event.tool.name, message: answer.message });
      continue;
    }
    const { decision } = answer;
    if (decision.kind === 'block') return { kind: 'block', reason: decision.reason, hook: label };
    if (decision.kind === 'input') {
      const checked = checkInput(decision.input);
      if (!checked.ok) return { kind: 'invalid-input', message: checked.message, hook: label };
      input = decision.input;
      rewrittenBy.push(label);
    }
  }
  return { kind: 'continue', input, rewrittenBy };
}

function annotated(result: ToolResult, text: string): ToolResult {
  if (text.trim() === '') return result;
  return { ...result, content: [...result.content, { type: 'text', text }] };
}

/**
 * Runs the after-tool hooks that match the tool, in order: a replacement result is what the next
 * hook sees, an annotation is appended to the result as a text block, and a failing hook is
 * reported through `onFailure` and skipped.
 */
export async function runAfterToolHooks(
  hooks: readonly AfterToolHook[],
  event: AfterToolEvent,
  options: RunHooksOptions = {},
): Promise<ToolResult> {
  let result = event.result;
  for (const [index, hook] of hooks.entries()) {
    if (!hookMatches(hook.matcher, event.tool.name)) continue;
    if (event.context.signal.aborted) break;
    const label = hookLabel('after', index, hook);
    const answer = await afterAnswer(hook, { ...event, result }, label, options.roots ?? []);
    if (!answer.ok) {
      options.onFailure?.({ phase: 'after', hook: label, tool: event.tool.name, message: answer.message });
      continue;
    }
    const { decision } = answer;
    if (decision.kind === 'result') result = decision.result;
    else if (decision.kind === 'annotate') result = annotated(result, decision.text);
  }
  return result;
}
