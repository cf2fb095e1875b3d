// The public surface of @boxagnts/query. Explicit named exports only.
export { BUILTIN_AGENTS, toolsForAgent } from './agents.js';
export {
  type CompactHistoryInput,
  type CompactHistoryResult,
  compactHistory,
  DEFAULT_KEEP_RECENT_TURNS,
} from './compaction/compact-history.js';
export { CHARS_PER_TOKEN, estimateTokens, messageChars } from './compaction/estimate-tokens.js';
export { findRecentCut } from './compaction/find-recent-cut.js';
export { type SummaryCall, type SummaryResult, summarizeConversation } from './compaction/summarize-conversation.js';
export {
  EARLIER_RESULT_PREFIX,
  summarizeOldToolResults,
  summarizeToolResult,
} from './compaction/summarize-tool-results.js';
export { type SurvivingFacts, survivingFacts } from './compaction/surviving-facts.js';
export type {
  AgentAccess,
  AgentDefinition,
  CompactionConfig,
  FallbackModel,
  ManagedAgentConfig,
  PendingMessages,
  QueryConfig,
  QueryOptions,
  RecoveryConfig,
  ToolExecutionConfig,
} from './config.js';
export type {
  DoneEvent,
  QueryEvent,
  RecoverableErrorEvent,
  StatusEvent,
  SubAgentEvent,
  TextDeltaEvent,
  ThinkingDeltaEvent,
  TokenPressureEvent,
  ToolEndEvent,
  ToolStartEvent,
  TurnEndEvent,
  TurnStartEvent,
  UsageEvent,
  UserMessageEvent,
} from './events.js';
export { BudgetLedger } from './limits/budget-ledger.js';
export { isTurnOutputLimitError, TurnOutputLimitError } from './limits/turn-output-limit-error.js';
export { isUnpricedBudgetError, UnpricedBudgetError } from './limits/unpriced-budget-error.js';
export { runQuery, runQueryToEnd } from './loop.js';
export type { QueryOutcome, QueryStopReason, RunUsage, UsageTotal } from './outcome.js';
export { CallPricer } from './pricing.js';
export { adapterForProvider } from './recovery/adapter-for-provider.js';
export { MAX_TOKENS_RESUME_PROMPT } from './recovery/resume-prompt.js';
export { compactedHistory, historyFromEntries } from './session/history-from-entries.js';
export { type HistoryRepair, INTERRUPTED_TOOL_RESULT, repairHistory } from './session/repair-history.js';
export {
  type ChildSessionInfo,
  createMemorySessionStore,
  type MemorySessionStore,
  type ModelCallPurpose,
  type ModelCallRecord,
  type SessionEntry,
  type SessionStore,
} from './session/session-store.js';
export { sameMessage, unsavedMessages } from './session/unsaved-messages.js';
export { DEFAULT_MAX_TURN_OUTPUT_CHARS } from './stream-turn.js';
export { managerTools, prepareWorkingCopy, subAgentConfig } from './subagents/managed-mode.js';
export { Semaphore } from './subagents/semaphore.js';
export type { PreparedRoot, SubAgentConfig } from './subagents/sub-agent-config.js';
export { type ParentRun, SubAgentPool } from './subagents/sub-agent-runner.js';
export { buildSystemPrompt, DEFAULT_ROLE, SAFETY_RULES, type SystemPromptInput } from './system-prompt.js';
export { capToolResult } from './tools/cap-tool-result.js';
export { LoopDetector } from './tools/loop-detector.js';
export { normalizeToolResult } from './tools/normalize-tool-result.js';
export { isPreparableTool, type PreparableTool, type PreparedToolCall } from './tools/prepared-tool-call.js';
export { type RunToolCallsOptions, runToolCalls } from './tools/run-tool-calls.js';
export { toToolResultBlock } from './tools/to-tool-result-block.js';
export { type TrimReport, trimToolResults } from './tools/trim-tool-results.js';
export { callCost, createRunUsage, recordCall, recordSubAgent } from './usage-totals.js';
