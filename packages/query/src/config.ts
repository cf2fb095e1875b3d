import type { Catalogue, LlmProvider, Message, ThinkingConfig } from '@boxagnts/api';
import type { AccessLevel, AnyTool, ToolContext } from '@boxagnts/tools';
import type { SessionStore } from './session/session-store.js';
import type { SubAgentConfig } from './subagents/sub-agent-config.js';

/** Which tools an agent gets, by permission level (see `accessAllows` of @boxagnts/tools). */
export type AgentAccess = AccessLevel;

/**
 * What kind of agent runs: its prompt goes in front of the system prompt, it may override model,
 * temperature and max turns, and its access level selects its tools.
 */
export interface AgentDefinition {
  name: string;
  description: string;
  prompt?: string;
  model?: string;
  temperature?: number;
  maxTurns?: number;
  access: AgentAccess;
}

/** A model to switch to when the current one stays overloaded, possibly on another provider. */
export interface FallbackModel {
  model: string;
  /** Default: the run's provider. */
  provider?: LlmProvider;
  /** The target's protocol adapter id (`anthropic-messages`, `openai-chat`, ...) for history transfer. */
  adapter?: string;
}

/** Manager/executor mode: a strong model plans and delegates through the agent tool only. */
export interface ManagedAgentConfig {
  /** The model executors run on. */
  executorModel: string;
  /** Provider of the executors; default the run's provider. */
  executorProvider?: LlmProvider;
  /** Ceiling of each executor's model calls (default 20); the manager's `max_turns` may only lower it. */
  maxExecutorTurns?: number;
  maxConcurrentExecutors?: number;
  /** USD each executor may spend (besides the run's budget, the total of the whole tree). */
  executorBudgetUsd?: number;
  /** Run each executor in its own working copy (git worktree in a git repository, a copy otherwise). */
  isolation?: 'none' | 'worktree';
}

/** When and how the history is compacted. */
export interface CompactionConfig {
  /** Default true. When false, a context overflow ends the run with `context_overflow`. */
  enabled?: boolean;
  /** Fraction of the context window at which compaction starts (default 0.75). */
  threshold?: number;
  /** Token-pressure events at these fractions (default 0.8 and 0.9). */
  warningThreshold?: number;
  criticalThreshold?: number;
  /** Most recent turns (assistant messages with their tool results) kept verbatim (default 4). */
  keepRecentTurns?: number;
  /** The model of the summarising call; default the run's model. */
  summaryModel?: string;
  /** Facts that must survive every compaction (constraints, files touched are added automatically). */
  preserve?: string[];
}

/** How the loop recovers. */
export interface RecoveryConfig {
  /** Times a reply cut at max_tokens is continued (default 3). */
  maxTokensResumes?: number;
  /** Times a turn that stalled or dropped after partial output is retried (default 2). */
  streamRetries?: number;
  /**
   * Context overflows recovered by compacting, in a row without a successful call in between
   * (default 2). Counted per occurrence: a successful call starts the count again.
   */
  overflowCompactions?: number;
}

/** Limits of the run's tool execution. */
export interface ToolExecutionConfig {
  /** Read-only calls of one turn running at once (default 8). */
  maxConcurrency?: number;
  /** Per-call timeout in ms unless the tool sets its own (default 120,000). */
  timeoutMs?: number;
  /**
   * Calls in a loop before the model is told it is looping (default 3): the same call repeated, or a
   * short cycle of calls (A,B,A,B) repeated; a cycle of p calls is noted once it has run twice.
   */
  loopThreshold?: number;
  /** Calls in such a loop after which the run stops with `tool_loop` (default 10). */
  loopStopThreshold?: number;
  /**
   * Characters of one tool result the model gets (default 100,000): a longer result keeps its head
   * and tail, with a note in the middle saying how much was cut.
   */
  maxResultChars?: number;
  /** Tool calls of one reply that run (default 64); each call past it gets an error result instead. */
  maxCallsPerTurn?: number;
}

/** What to run and under which limits. */
export interface QueryConfig {
  model: string;
  maxOutputTokens?: number;
  /** Every model call counts, tool loops and retries included (default 50). */
  maxTurns?: number;
  /** Replaces the default role section of the system prompt. */
  systemPrompt?: string;
  /** Appended after the capabilities section. */
  appendSystemPrompt?: string;
  thinking?: ThinkingConfig;
  temperature?: number;
  /** Characters of tool results kept in the history before the oldest are trimmed (default 50,000). */
  toolResultBudgetChars?: number;
  /**
   * Stop when the run's cost reaches this many USD; for the top run it is the budget of the whole
   * tree (every call of every sub-agent is charged to it as it completes).
   */
  budgetUsd?: number;
  /**
   * With a budget, a model without a price in the catalogue refuses to start (an
   * `UnpricedBudgetError`); `true` runs it anyway, its calls counted as $0 (default false).
   */
  allowUnpricedBudget?: boolean;
  /**
   * User messages that arrive while the final answer streams: `continue` (default) starts a
   * follow-up turn with them; `return` ends the run and hands them back in `outcome.pending`.
   */
  pendingAtEnd?: 'continue' | 'return';
  fallbackModels?: readonly FallbackModel[];
  agent?: AgentDefinition;
  managed?: ManagedAgentConfig;
  /** An output-style instruction for the system prompt. */
  outputStyle?: string;
  /** Shown to the model as session facts (default: the tool context root). */
  workingDirectory?: string;
  /** AGENTS.md text for the system prompt. */
  agentsMd?: string;
  /** Skill listing for the system prompt (names and descriptions). */
  skills?: string;
  /** The model's context window in tokens; default from the catalogue, else 200,000. */
  contextWindow?: number;
  compaction?: CompactionConfig;
  recovery?: RecoveryConfig;
  tools?: ToolExecutionConfig;
  /**
   * Characters one model reply may stream, text, thinking and tool arguments together (default
   * 4,000,000); past it the stream is dropped and the run ends with `error`, its cause a `TurnOutputLimitError`.
   */
  maxTurnOutputChars?: number;
  /** Longest the run may take in ms, sub-agents included; it then ends with `error` (timeout). */
  timeoutMs?: number;
  /** Date shown to the model (default today); injectable for reproducible prompts. */
  date?: string;
}

/** A pending user message queue: messages sent while the run works, drained before each call. */
export interface PendingMessages {
  /** Removes and returns the messages waiting now. */
  drain(): Message[];
}

/** Everything a run takes. */
export interface QueryOptions {
  provider: LlmProvider;
  /** The conversation so far, ending with the new user message (unless resuming). */
  messages: readonly Message[];
  /** The tools, or a function giving the current list (a tool set whose tool_search loads more). */
  tools?: readonly AnyTool[] | (() => readonly AnyTool[]);
  /** Base tool context (root, ids, services); the loop fills in signal, turn and call ids. */
  toolContext: Omit<ToolContext, 'signal' | 'turnId' | 'toolCallId'>;
  config: QueryConfig;
  /**
   * Where the run's history is stored. New messages of `messages` are stored before the first call:
   * all of them for a new session, else those after the last stored message (a resumed history
   * works, also after a compaction); `unsaved` says how many trailing messages are new instead.
   */
  session?: { store: SessionStore; sessionId: string; unsaved?: number };
  /** Prices for cost and budget; default the active catalogue of @boxagnts/api. */
  catalogue?: Catalogue;
  signal?: AbortSignal;
  pending?: PendingMessages;
  /**
   * Sub-agent limits. The loop gives tools a sub-agent runner (`ToolContext.agents`) unless the
   * host passes its own in `toolContext.agents`.
   */
  subAgents?: SubAgentConfig;
}
