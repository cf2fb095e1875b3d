import { type AnyTool, errorResult, type ToolContext, type ToolResult } from '@boxagnts/tools';
import { checkGuardedCall, executeGuardedCall, type GuardServices, runGuardedCall } from './guarded-call.js';

/**
 * The checks' verdict on one call, for the loop's pre-phase: refused with a result, or allowed with
 * the function that runs it (the same shape as `PreparedToolCall` of `@boxagnts/query`, which this
 * package does not depend on).
 */
export type PreparedCall =
  | { run: false; result: ToolResult }
  | { run: true; execute(context: ToolContext): Promise<ToolResult> };

/**
 * Wraps a tool so every call goes through the tool set's checks ({@link runGuardedCall}). The
 * wrapper shows the model exactly what the tool shows (name, description, schemas, permission,
 * concurrency) and validates the input itself, once (`validatesOwnInput`), but has no `timeoutMs` of its own: the inner tool's timeout applies to the tool
 * alone, not to hooks or to a user deciding whether to allow it. A deferred tool that is not
 * loaded yet refuses calls and says how to load it. `prepare` runs only the checks and hands back
 * the call to run, so a loop can check every call of a turn before running any.
 */
export function guardTool(
  tool: AnyTool,
  services: GuardServices,
  isLoaded: (name: string) => boolean,
): AnyTool & { prepare(input: unknown, context: ToolContext): Promise<PreparedCall> } {
  const notLoaded = () =>
    errorResult(
      `Tool "${tool.name}" is deferred and not loaded yet: load it with tool_search {"query": "select:${tool.name}"}, then call it again.`,
      { deferred: true, tool: tool.name },
    );
  const checksFailed = (error: unknown) => {
    services.logger?.error('tool call checks failed', { tool: tool.name, error: String(error) });
    return errorResult(
      `Tool "${tool.name}" was not run: checking the call failed (${error instanceof Error ? error.message : String(error)}).`,
    );
  };
  const execute = async (input: unknown, context: ToolContext): Promise<ToolResult> => {
    if (!isLoaded(tool.name)) return notLoaded();
    try {
      return await runGuardedCall(services, tool, input, context);
    } catch (error) {
      return checksFailed(error);
    }
  };
  // The loop's pre-phase (PreparableTool of @boxagnts/query): the checks now, the call later.
  const prepare = async (input: unknown, context: ToolContext): Promise<PreparedCall> => {
    if (!isLoaded(tool.name)) return { run: false, result: notLoaded() };
    try {
      const checked = await checkGuardedCall(services, tool, input, context, false);
      if (!checked.run) return checked;
      return {
        run: true,
        execute: (runContext: ToolContext) =>
          executeGuardedCall(services, tool, checked, runContext).catch(checksFailed),
      };
    } catch (error) {
      return { run: false, result: checksFailed(error) };
    }
  };
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    permission: tool.permission,
    ...(tool.concurrencySafe === undefined ? {} : { concurrencySafe: tool.concurrencySafe }),
    ...(tool.jsonSchema === undefined ? {} : { jsonSchema: tool.jsonSchema }),
    // The checks validate the input once and run the tool on that result (see guarded-call.ts).
    validatesOwnInput: true,
    execute,
    prepare,
  };
}
