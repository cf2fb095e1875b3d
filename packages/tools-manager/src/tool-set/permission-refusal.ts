import { errorResult, type ToolResult } from '@boxagnts/tools';
import type { PermissionDecision } from '../types.js';

/**
 * The error result for a call that was not run: the text tells the model why and what to do
 * instead; the metadata carries the decision (`{ permission: decision }`) for hosts and logs.
 */
export function permissionRefusal(
  text: string,
  decision: PermissionDecision,
  extra: Record<string, unknown> = {},
): ToolResult {
  return errorResult(text, { ...extra, permission: decision });
}

/** The model-facing text of a refusal by the permission rules (the engine's reasons are written for the model). */
export function deniedByRulesText(toolName: string, decision: PermissionDecision): string {
  return `Tool "${toolName}" was not run. ${decision.reason}`;
}

/** The model-facing text when approval is needed but nobody can give it. */
export function noUserText(toolName: string, reason: string): string {
  return (
    `Tool "${toolName}" was not run: it needs the user's approval and no user is available in this run; ${reason} ` +
    'Do not retry it: do the task another way, or finish and say which call needs approval.'
  );
}

/** The model-facing text when the user refused a call. */
export function userDeniedText(toolName: string, reason: string | undefined): string {
  const said = reason?.trim() ?? '';
  const why = said === '' ? '' : ` The user said: ${said}${/[.!?]$/.test(said) ? '' : '.'}`;
  return `Tool "${toolName}" was not run: the user denied this call.${why} Do not retry the same call; ask the user or take another way.`;
}
