// The public surface of @boxagnts/tools. Explicit named exports only.
export { ACCESS_LEVELS, type AccessLevel, accessAllows } from './access-level.js';
export type {
  AgentRunner,
  SubAgentRequest,
  SubAgentResult,
  SubAgentStatus,
} from './agent-runner.js';
export { defineTool, ToolDefinitionError } from './define-tool.js';
export {
  type ExecuteToolOptions,
  executeTool,
  executeValidatedTool,
  type ValidatedToolInput,
  validateToolInput,
} from './execute-tool.js';
export { AGENT_MAX_TURNS, AGENT_WAIT_SECONDS, agentStatusTool, agentTool } from './native/agent.js';
export { askUserQuestionTool } from './native/ask-user-question.js';
export {
  type Brief,
  type BriefAttachment,
  type BriefToolOptions,
  briefTool,
  createBriefTool,
  guessMimeType,
} from './native/brief.js';
export {
  ENTER_PLAN_MODE_TOOL_NAME,
  EXIT_PLAN_MODE_TOOL_NAME,
  enterPlanModeTool,
  exitPlanModeTool,
} from './native/plan-mode.js';
export {
  queryTerms,
  RANK_WEIGHTS,
  type RankableTool,
  type RankedTool,
  type RankToolsResult,
  rankTools,
  scoreTool,
  splitWords,
} from './native/rank-tools.js';
export { createSkillTool, type SkillToolOptions } from './native/skill.js';
export { SLEEP_MAX_SECONDS, SLEEP_MIN_SECONDS, sleepTool } from './native/sleep.js';
export { createToolSearchTool, TOOL_SEARCH_MAX_RESULTS, type ToolSearchSource } from './native/tool-search.js';
export { checkPlanMode } from './plan-mode-guard.js';
export {
  type ExpandSkillOptions,
  expandSkill,
  type ResolvedArguments,
  resolveSkillArguments,
  type SkillExpansion,
  substituteArguments,
} from './skills/expand-skill.js';
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
export {
  type ConfinedFileOptions,
  type ConfinedFileProblem,
  type ConfinedOpen,
  type ConfinedRead,
  isInsideFolder,
  openConfinedFile,
  readConfinedFile,
} from './skills/read-confined-file.js';
export { type SkillFrontmatter, skillFrontmatterSchema } from './skills/skill-frontmatter.js';
export { formatSkillLine, formatSkillListing } from './skills/skill-listing.js';
export { splitArguments } from './skills/split-arguments.js';
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
export type { ToolSource } from './tool-source.js';
