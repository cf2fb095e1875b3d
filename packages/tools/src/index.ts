// The public surface of @boxagnts/tools. Explicit named exports only.
export type {
  AgentRunner,
  SubAgentRequest,
  SubAgentResult,
  SubAgentStatus,
} from './agent-runner.js';
export { defineTool, ToolDefinitionError } from './define-tool.js';
export { type ExecuteToolOptions, executeTool } from './execute-tool.js';
export type { AnyTool, RawToolInput, Tool, ToolPermission, ToolResult, ToolResultContent } from './tool.js';
export type {
  CostTracker,
  RunMode,
  ToolContext,
  ToolLogger,
  UserAnswer,
  UserQuestion,
} from './tool-context.js';
export { toGeminiToolSchema, toolInputJsonSchema, toToolDefinition } from './tool-definitions.js';
export { errorResult, resultText, textResult } from './tool-results.js';
