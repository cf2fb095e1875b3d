import type { JsonObject } from '@boxagnts/api';
import {
  type AnyTool,
  executeValidatedTool,
  type ToolContext,
  type ToolLogger,
  type ToolResult,
  type ValidatedToolInput,
  validateToolInput,
} from '@boxagnts/tools';
import { runAfterToolHooks, runBeforeToolHooks } from '../hooks/run-hooks.js';
import type { AskHandler, PermissionAnswer, PermissionDecision, PermissionEngine, ToolHooks } from '../types.js';
import { type DeclaredKeys, declaredKeys, stripUndeclared } from './declared-input.js';
import { deniedByRulesText, noUserText, permissionRefusal, userDeniedText } from './permission-refusal.js';
import { type PlanModeSync, planModeRefusal } from './plan-mode-check.js';
import type { RememberedAnswers } from './remembered-answers.js';
import type { PermissionDecider, ToolSetEvent } from './tool-set-events.js';
import { type TurnSequencer, turnKey } from './turn-sequencer.js';

/** What every guarded call of one tool set shares. */
export interface GuardServices {
  engine: PermissionEngine;
  ask?: AskHandler;
  hooks: ToolHooks;
  /** Folders sandboxed tools can write (besides each call's root): no command hook runs from them. */
  roots: readonly string[];
  remembered: RememberedAnswers;
  planSync: PlanModeSync;
  emit(event: ToolSetEvent): void;
  logger?: ToolLogger;
  /** Orders the checks of one turn's calls (set when there are before-tool hooks or an ask handler). */
  sequencer?: TurnSequencer;
}

type Verdict = { run: true } | { run: false; result: ToolResult };

function decide(
  services: GuardServices,
  tool: AnyTool,
  context: ToolContext,
  decision: PermissionDecision,
  decidedBy: PermissionDecider,
): void {
  services.emit({
    type: 'permission-decision',
    tool: tool.name,
    permission: tool.permission,
    toolCallId: context.toolCallId,
    decision,
    decidedBy,
  });
}

/** Step (c): the engine's decision on the final input, the remembered answers, and the user for `ask`. */
async function checkPermission(
  services: GuardServices,
  tool: AnyTool,
  input: JsonObject,
  context: ToolContext,
): Promise<Verdict> {
  const decision = services.engine.evaluate(tool, input, context);
  const recalled = decision.behavior === 'deny' ? undefined : services.remembered.recall(tool.name, input);
  if (recalled === 'deny' || decision.behavior === 'deny') {
    const final: PermissionDecision =
      decision.behavior === 'deny'
        ? decision
        : { behavior: 'deny', reason: 'Denied: the user denied this exact call earlier in the run. Do not retry it.' };
    decide(services, tool, context, final, decision.behavior === 'deny' ? 'rules' : 'user');
    return { run: false, result: permissionRefusal(deniedByRulesText(tool.name, final), final) };
  }
  if (decision.behavior === 'allow') {
    decide(services, tool, context, decision, 'rules');
    return { run: true };
  }
  if (recalled === 'allow') {
    decide(
      services,
      tool,
      context,
      { behavior: 'allow', reason: 'Allowed: the user allowed this exact call earlier in the run.' },
      'user',
    );
    return { run: true };
  }
  if (services.ask === undefined) {
    const denied: PermissionDecision = {
      behavior: 'deny',
      ...(decision.rule === undefined ? {} : { rule: decision.rule }),
      reason: `needs the user's approval and no user is available in this run; ${decision.reason}`,
    };
    decide(services, tool, context, denied, 'no-user');
    return { run: false, result: permissionRefusal(noUserText(tool.name, decision.reason), denied) };
  }
  const request = {
    tool: { name: tool.name, description: tool.description, permission: tool.permission },
    input,
    reason: decision.reason,
    ...(decision.rule === undefined ? {} : { rule: decision.rule }),
    context,
  };
  const answer: PermissionAnswer = await services.ask(request).catch((error: unknown) => ({
    behavior: 'deny',
    reason: `asking the user failed: ${error instanceof Error ? error.message : String(error)}`,
  }));
  services.emit({
    type: 'permission-ask',
    tool: tool.name,
    toolCallId: context.toolCallId,
    reason: decision.reason,
    answer,
  });
  if (answer.remember === true) services.remembered.remember(tool, input, answer.behavior, context);
  if (answer.behavior === 'allow') {
    decide(services, tool, context, { behavior: 'allow', reason: 'Allowed by the user.' }, 'user');
    return { run: true };
  }
  const denied: PermissionDecision = {
    behavior: 'deny',
    reason: answer.reason === undefined ? 'Denied by the user.' : `Denied by the user: ${answer.reason}`,
  };
  decide(services, tool, context, denied, 'user');
  return { run: false, result: permissionRefusal(userDeniedText(tool.name, answer.reason), denied) };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of a refused validation (its error result's first text block). */
function refusalText(validated: ValidatedToolInput & { ok: false }): string {
  const first = validated.result.content[0];
  return first?.type === 'text' ? first.text : `Invalid input for tool.`;
}

/** Steps (b) and (c): the before-tool hooks, then the permission decision on the final input. */
async function checkCall(
  services: GuardServices,
  tool: AnyTool,
  validated: ValidatedToolInput & { ok: true },
  keys: DeclaredKeys,
  context: ToolContext,
): Promise<GuardedVerdict> {
  const input = stripUndeclared(validated.input, keys);
  // Only an input a hook rewrote is validated again; the last check of a rewrite is kept for the tool.
  let lastChecked: { candidate: JsonObject; validated: ValidatedToolInput & { ok: true } } | undefined;
  const before = await runBeforeToolHooks(
    services.hooks.beforeTool ?? [],
    { tool: { name: tool.name, permission: tool.permission }, input, context },
    (candidate) => {
      const checked = validateToolInput(tool, candidate);
      if (!checked.ok) return { ok: false, message: refusalText(checked) };
      lastChecked = { candidate, validated: checked };
      return { ok: true };
    },
    { onFailure: (failure) => services.emit({ type: 'hook-failure', failure }), roots: services.roots },
  );
  if (before.kind !== 'continue') {
    const decision: PermissionDecision = {
      behavior: 'deny',
      reason:
        before.kind === 'block'
          ? `blocked by hook ${before.hook}: ${before.reason}`
          : `hook ${before.hook} rewrote the input into an invalid one`,
    };
    decide(services, tool, context, decision, 'hook');
    const text =
      before.kind === 'block'
        ? `Tool "${tool.name}" was not run: blocked by hook ${before.hook}: ${before.reason}`
        : `Tool "${tool.name}" was not run: hook ${before.hook} rewrote its input into one the tool rejects.\n${before.message}`;
    return { run: false, result: permissionRefusal(text, decision, { hook: before.hook }) };
  }
  let final = validated;
  if (before.input !== input) {
    const rewritten = stripUndeclared(before.input, keys);
    const checked =
      lastChecked !== undefined && lastChecked.candidate === before.input && rewritten === before.input
        ? lastChecked.validated
        : validateToolInput(tool, rewritten);
    if (!checked.ok) return { run: false, result: checked.result };
    final = checked;
  }
  const finalInput = stripUndeclared(final.input, keys);
  const value = isObject(final.value) ? stripUndeclared(final.value, keys) : final.value;
  const verdict = await checkPermission(services, tool, isObject(value) ? value : finalInput, context);
  return verdict.run ? { run: true, input: finalInput, value } : verdict;
}

/**
 * Where the checks of one call leave it: refused with a result, or allowed to run with this input
 * (`input` as the hooks left it, `value` what the tool's schema made of it, for the tool).
 */
export type GuardedVerdict = { run: false; result: ToolResult } | { run: true; input: JsonObject; value: unknown };

/**
 * The checks before one call, in order: (a) plan mode, (b) the before-tool hooks (block, or rewrite
 * the input, re-validated), (c) the permission engine on the final input (ask -> the host, or deny
 * without one); (b) and (c) one call after another within a turn, see `TurnSequencer`. Every
 * refusal is an error result with `{ permission: decision }` in its metadata.
 */
export async function checkGuardedCall(
  services: GuardServices,
  tool: AnyTool,
  rawInput: unknown,
  context: ToolContext,
  waitForTurn: boolean,
): Promise<GuardedVerdict> {
  const planRefusal = planModeRefusal(tool, context, services.engine);
  if (planRefusal !== undefined) {
    const decision: PermissionDecision = {
      behavior: 'deny',
      reason: `plan mode allows only read-only tools ("${tool.name}" needs ${tool.permission} permission)`,
    };
    decide(services, tool, context, decision, 'plan-mode');
    return { run: false, result: { ...planRefusal, metadata: { ...planRefusal.metadata, permission: decision } } };
  }
  // The one validation of the call: hooks, rules and the tool then use its result.
  const validated = validateToolInput(tool, rawInput);
  if (!validated.ok) return { run: false, result: validated.result };
  // Hooks, rules and the tool all see only the keys the tool declares (see declared-input.ts).
  const keys = declaredKeys(tool);
  const checks = () => checkCall(services, tool, validated, keys, context);
  const sequencer = services.sequencer;
  if (sequencer === undefined) return checks();
  const key = turnKey(context);
  const checked = await sequencer.sequence(key, checks);
  // The turn's remaining checks go first: hooks never overlap the calls of their own turn.
  if (checked.run && waitForTurn) await sequencer.idle(key);
  return checked;
}

/**
 * Steps (d) and (e) of an allowed call: the tool itself on the input the checks validated (run with
 * `executeValidatedTool`: timeout, abort, failures as results; no second validation), then the
 * after-tool hooks.
 */
export async function executeGuardedCall(
  services: GuardServices,
  tool: AnyTool,
  checked: { input: JsonObject; value: unknown },
  context: ToolContext,
): Promise<ToolResult> {
  const input = checked.input;
  const modeBefore = context.mode?.get();
  const started = performance.now();
  const result = await executeValidatedTool(tool, checked.value, context);
  const durationMs = Math.round(performance.now() - started);
  services.planSync.update(modeBefore, context.mode?.get());

  return runAfterToolHooks(
    services.hooks.afterTool ?? [],
    { tool: { name: tool.name, permission: tool.permission }, input, result, context, durationMs },
    { onFailure: (failure) => services.emit({ type: 'hook-failure', failure }), roots: services.roots },
  );
}

/**
 * Runs one call of a tool through the tool set's checks ({@link checkGuardedCall}), then the tool
 * and its after-tool hooks ({@link executeGuardedCall}). Never throws.
 */
export async function runGuardedCall(
  services: GuardServices,
  tool: AnyTool,
  rawInput: unknown,
  context: ToolContext,
): Promise<ToolResult> {
  const checked = await checkGuardedCall(services, tool, rawInput, context, true);
  return checked.run ? executeGuardedCall(services, tool, checked, context) : checked.result;
}
