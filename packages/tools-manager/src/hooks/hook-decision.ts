import type { JsonObject } from '@boxagnts/api';
import type { ToolResult } from '@boxagnts/tools';
import type { AfterHookDecision, BeforeHookDecision, HookAnswer } from './hook-answer.js';
import { afterToolOutcomeSchema, beforeToolOutcomeSchema, describeOutcomeError } from './hook-outcome-schema.js';

/**
 * Checks a before-tool hook's answer (from a function's return value or a command's JSON) and
 * turns it into a decision; `undefined`/`null` mean "go on". Valid values are used as given.
 */
export function toBeforeDecision(value: unknown, label: string): HookAnswer<BeforeHookDecision> {
  if (value === undefined || value === null) return { ok: true, decision: { kind: 'none' } };
  const checked = beforeToolOutcomeSchema.safeParse(value);
  if (!checked.success) {
    return {
      ok: false,
      message: `answered something that is not a before-tool outcome (${describeOutcomeError(checked.error)})`,
    };
  }
  const answer = value as { block?: true; reason?: string; input?: JsonObject };
  if (answer.block === true) {
    const reason = answer.reason?.trim() ?? '';
    return { ok: true, decision: { kind: 'block', reason: reason === '' ? `Blocked by hook ${label}.` : reason } };
  }
  if (answer.input !== undefined) return { ok: true, decision: { kind: 'input', input: answer.input } };
  return { ok: true, decision: { kind: 'none' } };
}

/**
 * Checks an after-tool hook's answer and turns it into a decision; `undefined`/`null` mean
 * "nothing to change". Valid values are used as given.
 */
export function toAfterDecision(value: unknown): HookAnswer<AfterHookDecision> {
  if (value === undefined || value === null) return { ok: true, decision: { kind: 'none' } };
  const checked = afterToolOutcomeSchema.safeParse(value);
  if (!checked.success) {
    return {
      ok: false,
      message: `answered something that is not an after-tool outcome (${describeOutcomeError(checked.error)})`,
    };
  }
  const answer = value as { result?: ToolResult; annotate?: string };
  if (answer.result !== undefined) return { ok: true, decision: { kind: 'result', result: answer.result } };
  if (answer.annotate !== undefined) return { ok: true, decision: { kind: 'annotate', text: answer.annotate } };
  return { ok: true, decision: { kind: 'none' } };
}
