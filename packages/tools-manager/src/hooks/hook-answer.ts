import type { JsonObject } from '@boxagnts/api';
import type { ToolResult } from '@boxagnts/tools';

/** A before-tool hook's answer once checked: block, replace the input, or go on. */
export type BeforeHookDecision =
  | { kind: 'block'; reason: string }
  | { kind: 'input'; input: JsonObject }
  | { kind: 'none' };

/** An after-tool hook's answer once checked: replace the result, annotate it, or nothing. */
export type AfterHookDecision =
  | { kind: 'result'; result: ToolResult }
  | { kind: 'annotate'; text: string }
  | { kind: 'none' };

/** One hook's run: its checked answer, or why it failed (reported, never fatal). */
export type HookAnswer<Decision> = { ok: true; decision: Decision } | { ok: false; message: string };

/** Default longest a hook may run, in milliseconds. */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;
