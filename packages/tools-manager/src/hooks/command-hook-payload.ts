import type { AfterToolEvent, BeforeToolEvent } from '../types.js';

/**
 * The JSON a command hook reads on stdin (snake_case, like other agents' hook protocols):
 * `phase`, `tool_name`, `tool_permission`, `tool_input`, `tool_result` and `duration_ms` (after
 * phase only), `root`, `session_id`, `turn_id`, `tool_call_id`.
 */
export interface CommandHookPayload {
  phase: 'before' | 'after';
  tool_name: string;
  tool_permission: string;
  tool_input: unknown;
  tool_result?: unknown;
  duration_ms?: number;
  root: string;
  session_id: string;
  turn_id: string;
  tool_call_id: string;
}

/** Builds the stdin payload of a command hook from a hook event. */
export function commandHookPayload(
  phase: 'before' | 'after',
  event: BeforeToolEvent | AfterToolEvent,
): CommandHookPayload {
  const after = 'result' in event ? { tool_result: event.result, duration_ms: event.durationMs } : {};
  return {
    phase,
    tool_name: event.tool.name,
    tool_permission: event.tool.permission,
    tool_input: event.input,
    ...after,
    root: event.context.root,
    session_id: event.context.sessionId,
    turn_id: event.context.turnId,
    tool_call_id: event.context.toolCallId,
  };
}
