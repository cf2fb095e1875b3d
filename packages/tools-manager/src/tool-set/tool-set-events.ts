import type { ToolPermission } from '@boxagnts/tools';
import type { HookFailure, PermissionAnswer, PermissionDecision } from '../types.js';

/**
 * Who decided a call's permission:
 * - `plan-mode`: the run (or the engine) is in plan mode and the tool is not read-only;
 * - `hook`: a before-tool hook blocked the call;
 * - `rules`: the permission engine (rules and mode);
 * - `user`: the host's ask handler answered;
 * - `no-user`: the engine asked but there is no ask handler, so the call was denied.
 */
export type PermissionDecider = 'plan-mode' | 'hook' | 'rules' | 'user' | 'no-user';

/** What a tool set tells its host as it works; for logs, audit trails and UIs. */
export type ToolSetEvent =
  | {
      type: 'tools-loaded';
      /** Tools given to the model now (`tool_search` included when something is deferred). */
      loaded: string[];
      /** Tools reachable only through `tool_search`. */
      deferred: string[];
      sources: Array<{ name: string; kind: string; tools: number }>;
      /** Allow/deny names that matched no tool (likely typos). */
      unmatchedNames: string[];
    }
  | { type: 'tools-selected'; names: string[] }
  | {
      type: 'permission-decision';
      tool: string;
      permission: ToolPermission;
      toolCallId: string;
      decision: PermissionDecision;
      decidedBy: PermissionDecider;
    }
  | {
      type: 'permission-ask';
      tool: string;
      toolCallId: string;
      reason: string;
      answer: PermissionAnswer;
    }
  | { type: 'hook-failure'; failure: HookFailure };
