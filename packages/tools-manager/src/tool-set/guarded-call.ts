import type { JsonObject } from '@boxagnts/api';
import {
  type AnyTool,
  errorResult,
  executeTool,
  type ToolContext,
  type ToolLogger,
  type ToolResult,
} from '@boxagnts/tools';
import { runAfterToolHooks, runBeforeToolHooks } from '../hooks/run-hooks.js';
import type { AskHandler, PermissionAnswer, PermissionDecision, PermissionEngine, ToolHooks } from '../types.js';
import { type DeclaredKeys, declaredKeys, stripUndeclared } from './declared-input.js';
import { deniedByRulesText, noUserText, permissionRefusal, userDeniedText } from './permission-refusal.js';
import { type PlanModeSync, planModeRefusal } from './plan-mode-check.js';
import type { RememberedAnswers } from './remembered-answers.js';
import type { PermissionDecider, ToolSetEvent } from './tool-set-events.js';
import { type TurnSequencer, turnKey } from './turn-sequencer.js';
import { validateInput } from './validate-input.js';

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

/** Where the checks before a call leave it: run with this input, or answered with a refusal. */
type CheckedCall = { run: true; input: JsonObject } | { run: false; result: ToolResult };

/** Steps (b) and (c): the before-tool hooks, then the permission decision on the final input. */
async function checkCall(
  services: GuardServices,
  tool: AnyTool,
  input: JsonObject,
  keys: DeclaredKeys,
  context: ToolContext,
): Promise<CheckedCall> {
  const before = await runBeforeToolHooks(
    services.hooks.beforeTool ?? [],
    { tool: { name: tool.name, permission: tool.permission }, input, context },
    (candidate) => {
      const checked = validateInput(tool, candidate);
      return checked.ok ? { ok: true } : { ok: false, message: checked.message };
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
  const final = validateInput(tool, stripUndeclared(before.input, keys));
  if (!final.ok) return { run: false, result: errorResult(final.message) };

  const verdict = await checkPermission(services, tool, stripUndeclared(final.parsed, keys), context);
  return verdict.run ? { run: true, input: final.input } : verdict;
}

/** Where the checks of one call leave it: refused with a result, or allowed to run with this input. */
export type GuardedVerdict = { run: false; result: ToolResult } | { run: true; input: JsonObject };

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
  const validated = validateInput(tool, rawInput);
  if (!validated.ok) return { run: false, result: errorResult(validated.message) };
  // Hooks, rules and the tool all see only the keys the tool declares (see declared-input.ts).
  const keys = declaredKeys(tool);
  const checks = () => checkCall(services, tool, stripUndeclared(validated.input, keys), keys, context);
  const sequencer = services.sequencer;
  if (sequencer === undefined) return checks();
  const key = turnKey(context);
  const checked = await sequencer.sequence(key, checks);
  // The turn's remaining checks go first: hooks never overlap the calls of their own turn.
  if (checked.run && waitForTurn) await sequencer.idle(key);
  return checked;
}

/** Steps (d) and (e) of an allowed call: the tool itself through `executeTool`, then the after-tool hooks. */
export async function executeGuardedCall(
  services: GuardServices,
  tool: AnyTool,
  input: JsonObject,
  context: ToolContext,
): Promise<ToolResult> {
  const modeBefore = context.mode?.get();
  const started = performance.now();
  const result = await executeTool(tool, input, context);
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
  return checked.run ? executeGuardedCall(services, tool, checked.input, context) : checked.result;
}
