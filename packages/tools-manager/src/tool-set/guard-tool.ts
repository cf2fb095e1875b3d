import { type AnyTool, errorResult, type ToolContext, type ToolResult } from '@boxagnts/tools';
import { type GuardServices, runGuardedCall } from './guarded-call.js';

/**
 * Wraps a tool so every call goes through the tool set's checks ({@link runGuardedCall}). The
 * wrapper shows the model exactly what the tool shows (name, description, schemas, permission,
 * concurrency) but has no `timeoutMs` of its own: the inner tool's timeout applies to the tool
 * alone, not to hooks or to a user deciding whether to allow it. A deferred tool that is not
 * loaded yet refuses calls and says how to load it.
 */
export function guardTool(tool: AnyTool, services: GuardServices, isLoaded: (name: string) => boolean): AnyTool {
  const execute = async (input: unknown, context: ToolContext): Promise<ToolResult> => {
    if (!isLoaded(tool.name)) {
      return errorResult(
        `Tool "${tool.name}" is deferred and not loaded yet: load it with tool_search {"query": "select:${tool.name}"}, then call it again.`,
        { deferred: true, tool: tool.name },
      );
    }
    try {
      return await runGuardedCall(services, tool, input, context);
    } catch (error) {
      services.logger?.error('tool call checks failed', { tool: tool.name, error: String(error) });
      return errorResult(
        `Tool "${tool.name}" was not run: checking the call failed (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
  };
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    permission: tool.permission,
    ...(tool.concurrencySafe === undefined ? {} : { concurrencySafe: tool.concurrencySafe }),
    ...(tool.jsonSchema === undefined ? {} : { jsonSchema: tool.jsonSchema }),
    execute,
  };
}
