import { EXIT_PLAN_MODE_TOOL_NAME } from './native/plan-mode.js';
import type { AnyTool, ToolResult } from './tool.js';
import type { ToolContext } from './tool-context.js';
import { errorResult } from './tool-results.js';

/**
 * Enforces plan mode for one call: when the run is in plan mode, any tool that is not read-only
 * (except exit_plan_mode, the way out) is refused with an error result the model can act on.
 * Returns undefined when the call may run. tools-manager calls it before every execution.
 *
 * @example
 * const refused = checkPlanMode(tool, context);
 * const result = refused ?? (await executeTool(tool, input, context));
 */
export function checkPlanMode(
  tool: Pick<AnyTool, 'name' | 'permission'>,
  context: Pick<ToolContext, 'mode'>,
): ToolResult | undefined {
  if (context.mode === undefined || context.mode.get() !== 'plan') return undefined;
  if (tool.permission === 'read-only' || tool.name === EXIT_PLAN_MODE_TOOL_NAME) return undefined;
  return errorResult(
    `Tool "${tool.name}" was not run: the run is in plan mode, where only read-only tools are allowed ` +
      `("${tool.name}" needs ${tool.permission} permission). Keep exploring with read-only tools, then call ` +
      `${EXIT_PLAN_MODE_TOOL_NAME} with your plan; once the user approves it, call this tool again.`,
    { planMode: true, tool: tool.name, permission: tool.permission },
  );
}
