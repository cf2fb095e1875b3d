// The public surface of @boxagnts/tools: what users call, grouped by purpose, the main function first.
// Explicit named exports only; helpers used inside the package stay inside it (index.test.ts holds the list).

export { ACCESS_LEVELS, type AccessLevel, accessAllows } from './access-level.js';
export type { AgentRunner, SubAgentRequest, SubAgentResult, SubAgentStatus } from './agent-runner.js';
// Defining a tool
export { defineTool, ToolDefinitionError } from './define-tool.js';
// Running a call (validated once: a wrapper that checks calls validates, then runs the validated input)
export {
  type ExecuteToolOptions,
  type ExecuteToolThenOptions,
  executeTool,
  executeToolThen,
  executeValidatedTool,
  type ValidatedToolInput,
  validateToolInput,
} from './execute-tool.js';
// Native tools
export { agentStatusTool, agentTool } from './native/agent.js';
export { askUserQuestionTool } from './native/ask-user-question.js';
export { type Brief, type BriefAttachment, type BriefToolOptions, briefTool, createBriefTool } from './native/brief.js';
export {
  ENTER_PLAN_MODE_TOOL_NAME,
  EXIT_PLAN_MODE_TOOL_NAME,
  enterPlanModeTool,
  exitPlanModeTool,
} from './native/plan-mode.js';
// Skills
export { createSkillTool, type SkillToolOptions } from './native/skill.js';
export { sleepTool } from './native/sleep.js';
export { createToolSearchTool, type ToolSearchSource } from './native/tool-search.js';
export { checkPlanMode } from './plan-mode-guard.js';
export { type ExpandSkillOptions, expandSkill, type SkillExpansion } from './skills/expand-skill.js';
export {
  builtinSkillsFolder,
  type DefaultSkillFoldersOptions,
  defaultSkillFolders,
  type LoadSkillsOptions,
  loadSkills,
  SKILL_FILE,
  type SkillArgument,
  type SkillCatalogue,
  type SkillOverride,
  type SkillSummary,
  type SkillWarning,
} from './skills/load-skills.js';
// Reading instruction files confined to a folder (skills, AGENTS.md, config)
export {
  type ConfinedFileOptions,
  type ConfinedFileProblem,
  type ConfinedRead,
  isInsideFolder,
  readConfinedFile,
} from './skills/read-confined-file.js';
export { formatSkillListing } from './skills/skill-listing.js';
export type { AnyTool, RawToolInput, Tool, ToolPermission, ToolResult, ToolResultContent } from './tool.js';
export type {
  CostTracker,
  RunMode,
  ToolContext,
  ToolLogger,
  UserAnswer,
  UserQuestion,
} from './tool-context.js';
// Sending tools to a model
export { toolInputJsonSchema, toToolDefinition } from './tool-definitions.js';
export { errorResult, resultText, textResult } from './tool-results.js';
export type { ToolSource } from './tool-source.js';
