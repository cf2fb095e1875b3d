import type { AfterToolEvent, BeforeToolEvent, CommandHook } from '../types.js';
import { commandHookPayload } from './command-hook-payload.js';
import {
  type AfterHookDecision,
  type BeforeHookDecision,
  DEFAULT_HOOK_TIMEOUT_MS,
  type HookAnswer,
} from './hook-answer.js';
import { toAfterDecision, toBeforeDecision } from './hook-decision.js';
import { hookEnvironment } from './hook-environment.js';
import { checkHookLocation } from './hook-location.js';
import { type HookCommandOutcome, spawnHookCommand } from './spawn-hook-command.js';

const PREVIEW = 300;

function preview(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ');
  return line.length > PREVIEW ? `${line.slice(0, PREVIEW - 1)}…` : line;
}

/** Why a command's run is a failure, or undefined when it exited normally (status 0 or 2). */
function failureOf(outcome: HookCommandOutcome, timeoutMs: number, cwd: string): string | undefined {
  if (outcome.spawnError !== undefined) return `could not start /bin/sh in ${cwd}: ${outcome.spawnError}`;
  if (outcome.timedOut) return `timed out after ${timeoutMs} ms; its process group was killed`;
  if (outcome.aborted) return 'stopped because the run was cancelled';
  if (outcome.exitCode === 0 || outcome.exitCode === 2) return undefined;
  const stderr = outcome.stderr.trim() === '' ? '' : `: ${preview(outcome.stderr)}`;
  if (outcome.exitCode === null) return `was killed by ${outcome.exitSignal ?? 'a signal'}${stderr}`;
  return `exited with status ${outcome.exitCode}${stderr}`;
}

/** Parses exit-0 stdout: nothing, or one JSON value. */
function parseStdout(outcome: HookCommandOutcome): { ok: true; value: unknown } | { ok: false; message: string } {
  if (outcome.stdoutTruncated) return { ok: false, message: 'printed more than the output limit on stdout' };
  const text = outcome.stdout.trim();
  if (text === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, message: `printed output that is not JSON: ${preview(text)}` };
  }
}

type CommandRun =
  | { refused: string }
  | { refused?: undefined; outcome: HookCommandOutcome; failure: string | undefined };

async function runCommand(
  phase: 'before' | 'after',
  hook: CommandHook,
  event: BeforeToolEvent | AfterToolEvent,
  roots: readonly string[],
): Promise<CommandRun> {
  const timeoutMs = hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  // Checked on every run: a file or link that appears later inside a root is refused as well.
  const allRoots = [event.context.root, ...roots];
  const location = checkHookLocation(hook, allRoots);
  if (!location.ok) return { refused: location.message };
  const cwd = location.cwd;
  const outcome = await spawnHookCommand({
    command: hook.command,
    stdin: JSON.stringify(commandHookPayload(phase, event)),
    cwd,
    env: hookEnvironment(hook.env, process.env, allRoots),
    timeoutMs,
    signal: event.context.signal,
  });
  return { outcome, failure: failureOf(outcome, timeoutMs, cwd) };
}

/**
 * Runs a before-tool command hook: exit 0 with a JSON outcome on stdout (or nothing), exit 2 blocks
 * the call with stderr as the reason, anything else is a failure the caller reports.
 */
export async function runBeforeCommandHook(
  hook: CommandHook,
  event: BeforeToolEvent,
  label: string,
  roots: readonly string[] = [],
): Promise<HookAnswer<BeforeHookDecision>> {
  const run = await runCommand('before', hook, event, roots);
  if (run.refused !== undefined) {
    // Fail closed: a check the host relies on must not be skipped, nor run from where the agents write.
    return { ok: true, decision: { kind: 'block', reason: `the hook was refused and not run: ${run.refused}.` } };
  }
  const { outcome, failure } = run;
  if (failure !== undefined) return { ok: false, message: failure };
  if (outcome.exitCode === 2) {
    const reason = outcome.stderr.trim();
    return { ok: true, decision: { kind: 'block', reason: reason === '' ? `Blocked by hook ${label}.` : reason } };
  }
  const parsed = parseStdout(outcome);
  return parsed.ok ? toBeforeDecision(parsed.value, label) : parsed;
}

/**
 * Runs an after-tool command hook: exit 0 with a JSON outcome on stdout (or nothing), exit 2
 * annotates the result with stderr, anything else is a failure the caller reports.
 */
export async function runAfterCommandHook(
  hook: CommandHook,
  event: AfterToolEvent,
  label: string,
  roots: readonly string[] = [],
): Promise<HookAnswer<AfterHookDecision>> {
  const run = await runCommand('after', hook, event, roots);
  if (run.refused !== undefined) return { ok: false, message: `was refused and not run: ${run.refused}` };
  const { outcome, failure } = run;
  if (failure !== undefined) return { ok: false, message: failure };
  if (outcome.exitCode === 2) {
    const text = outcome.stderr.trim();
    return { ok: true, decision: { kind: 'annotate', text: text === '' ? `Flagged by hook ${label}.` : text } };
  }
  const parsed = parseStdout(outcome);
  return parsed.ok ? toAfterDecision(parsed.value) : parsed;
}
