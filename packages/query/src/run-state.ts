import { findModel, type LlmProvider, type Message } from '@boxagnts/api';
import type { RunMode } from '@boxagnts/tools';
import { estimateTokens } from './compaction/estimate-tokens.js';
import type { CompactionConfig, FallbackModel, QueryConfig, QueryOptions } from './config.js';
import type { EventBuffer } from './event-buffer.js';
import type { QueryEvent } from './events.js';
import { BudgetLedger } from './limits/budget-ledger.js';
import type { RunUsage } from './outcome.js';
import { CallPricer } from './pricing.js';
import type { RunSession } from './session/persist.js';
import type { Semaphore } from './subagents/semaphore.js';
import { messageToolResultChars } from './tools/trim-tool-results.js';
import { createRunUsage } from './usage-totals.js';

/** Defaults of the loop's limits. */
export const LOOP_DEFAULTS = {
  maxTurns: 50,
  toolResultBudgetChars: 50_000,
  contextWindow: 200_000,
  maxTokensResumes: 3,
  streamRetries: 2,
  overflowCompactions: 2,
  maxConcurrency: 8,
  toolTimeoutMs: 120_000,
  loopThreshold: 3,
  loopStopThreshold: 10,
  maxResultChars: 100_000,
  maxCallsPerTurn: 64,
  compactThreshold: 0.75,
  warningThreshold: 0.8,
  criticalThreshold: 0.9,
} as const;

/** What every run of one tree shares. */
export interface RunTree {
  depth: number;
  semaphore: Semaphore;
  /** Model calls made by the whole tree. */
  turns: { count: number };
  maxTreeTurns?: number;
}

/** Who a run is within its tree: for the ledger and for usage records. */
export interface RunIdentity {
  /** The ledger of the agent that started this run (absent for the top run). */
  parentLedger?: BudgetLedger;
  /** The sub-agent's id, for a sub-agent. */
  subAgentId?: string;
  /** Where the run's usage records go when it has no session of its own (a sub-agent without a child session). */
  usageSession?: RunSession;
}

/** The state of one run: its settings, fixed at the start, and what changes from turn to turn. */
export interface RunState {
  readonly options: QueryOptions;
  readonly config: QueryConfig;
  readonly tree: RunTree;
  readonly signal: AbortSignal;
  readonly messages: Message[];
  readonly usage: RunUsage;
  /** This run's USD account, chained to its parent's (one ledger per tree). */
  readonly ledger: BudgetLedger;
  readonly pricer: CallPricer;
  readonly session: RunSession | undefined;
  /** Where usage records go (the run's session, or its parent's for a sub-agent without one). */
  readonly usageSession: RunSession | undefined;
  readonly subAgentId: string | undefined;
  readonly buffer: EventBuffer<QueryEvent>;
  readonly maxTurns: number;
  readonly compaction: CompactionConfig;
  readonly compactionEnabled: boolean;
  /** The run's mode (plan mode): the host's, or the loop's own. */
  readonly mode: RunMode;
  model: string;
  provider: LlmProvider;
  contextWindow: number;
  fallbacks: FallbackModel[];
  /** Model calls made for turns (auxiliary calls are not turns). */
  turn: number;
  /** Characters of tool results in the history. */
  toolChars: number;
  /** Input plus output tokens the last call reported (0 until one reports input tokens). */
  lastInputTokens: number;
  /** Characters added since that report. */
  charsSinceUsage: number;
  pressure: 'none' | 'warning' | 'critical';
  maxTokensResumes: number;
  streamRetries: number;
  /** Overflow compactions since the last successful call. */
  overflowCompactions: number;
  /** Compactions in a row that left the context over the threshold. */
  fruitlessCompactions: number;
  compactionStalled: boolean;
}

const NO_FALLBACKS = Object.freeze([]) as unknown as FallbackModel[];

/** The context window of `model`: the config's, the catalogue's, or the default. */
export function contextWindowOf(config: QueryConfig, provider: LlmProvider, model: string): number {
  return (
    config.contextWindow ?? findModel(model, { provider: provider.id })?.contextWindow ?? LOOP_DEFAULTS.contextWindow
  );
}

/** A run mode kept in the run itself, for hosts that bring none (one small object per run). */
class OwnMode implements RunMode {
  private current: 'default' | 'plan' = 'default';
  get(): 'default' | 'plan' {
    return this.current;
  }
  set(mode: 'default' | 'plan'): void {
    this.current = mode;
  }
}

/** The state a run starts with. */
export function createRunState(
  options: QueryOptions,
  tree: RunTree,
  identity: RunIdentity,
  signal: AbortSignal,
  buffer: EventBuffer<QueryEvent>,
): RunState {
  const { config } = options;
  const agent = config.agent;
  const messages: Message[] = [...options.messages];
  const model = agent?.model ?? config.model;
  const compaction = config.compaction ?? {};
  let toolChars = 0;
  for (const message of messages) toolChars += messageToolResultChars(message);
  const session = options.session;
  return {
    options,
    config,
    tree,
    signal,
    messages,
    usage: createRunUsage(),
    ledger: new BudgetLedger(config.budgetUsd, identity.parentLedger),
    pricer: new CallPricer(options.catalogue),
    session,
    usageSession: session ?? identity.usageSession,
    subAgentId: identity.subAgentId,
    buffer,
    maxTurns: agent?.maxTurns ?? config.maxTurns ?? LOOP_DEFAULTS.maxTurns,
    compaction,
    compactionEnabled: compaction.enabled !== false,
    mode: options.toolContext.mode ?? new OwnMode(),
    model,
    provider: options.provider,
    contextWindow: contextWindowOf(config, options.provider, model),
    // Copied only when there is something to take from it (the shared empty list is never shifted).
    fallbacks:
      config.fallbackModels !== undefined && config.fallbackModels.length > 0
        ? [...config.fallbackModels]
        : NO_FALLBACKS,
    turn: 0,
    toolChars,
    lastInputTokens: 0,
    // Until a call reports usage, the whole history is an estimate.
    charsSinceUsage: estimateTokens(messages) * 4,
    pressure: 'none',
    maxTokensResumes: 0,
    streamRetries: 0,
    overflowCompactions: 0,
    fruitlessCompactions: 0,
    compactionStalled: false,
  };
}
