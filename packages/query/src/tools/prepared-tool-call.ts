import type { AnyTool, ToolContext, ToolResult } from '@boxagnts/tools';

/**
 * What a tool's `prepare` decided for one call, before any call of its turn runs: refused with the
 * result the model gets, or allowed, with the function that runs it (on the input the checks settled
 * on, which may differ from the model's after a hook rewrote it).
 */
export type PreparedToolCall =
  | { run: false; result: ToolResult }
  | { run: true; execute(context: ToolContext): Promise<ToolResult> };

/**
 * A tool with the loop's pre-phase seam: when one reply has several calls, the loop calls `prepare`
 * of each call in the model's order, one after another, before any call of the turn runs, and
 * then runs the allowed calls (read-only ones in parallel, the others one at a time). A tool set that
 * checks calls (hooks, permissions, questions to the user) implements it, so every check of a turn
 * comes before every execution. A single call, or a tool without `prepare`, runs through `execute`.
 */
export interface PreparableTool extends AnyTool {
  prepare(input: unknown, context: ToolContext): Promise<PreparedToolCall>;
}

/** Whether `tool` has the pre-phase seam ({@link PreparableTool}). */
export function isPreparableTool(tool: AnyTool | undefined): tool is PreparableTool {
  return typeof (tool as Partial<PreparableTool> | undefined)?.prepare === 'function';
}
