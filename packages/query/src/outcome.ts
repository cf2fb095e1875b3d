import type { Message, Usage } from '@boxagnts/api';
import type { ModelCallPurpose } from './session/session-store.js';

/** Tokens and cost of one model, or of one sub-agent, over a run. */
export interface UsageTotal {
  /** Model calls made. */
  calls: number;
  usage: Usage;
  /** USD; `undefined` while any call's cost was unknown (model not in the catalogue). */
  costUsd: number;
  /** Calls whose cost could not be computed (they count as 0 in `costUsd`). */
  unpricedCalls: number;
}

/** Usage and cost of a run: in total, per model, and per sub-agent (by sub-agent id). */
export interface RunUsage {
  total: UsageTotal;
  byModel: Record<string, UsageTotal>;
  bySubAgent: Record<string, UsageTotal>;
  /** Per purpose of the call: the loop's turns, compaction summaries, other auxiliary calls. */
  byPurpose: Partial<Record<ModelCallPurpose, UsageTotal>>;
}

/** Why a run ended. */
export type QueryStopReason =
  | 'end_turn'
  | 'max_turns'
  | 'budget_exceeded'
  | 'cancelled'
  | 'refusal'
  | 'context_overflow'
  | 'tool_loop'
  | 'error';

interface OutcomeBase {
  /** The whole history at the end (what a session store holds), system prompt excluded. */
  messages: Message[];
  /** Model calls made (tool loops and retries included). */
  turns: number;
  usage: RunUsage;
  /** The text of the last assistant message (the final answer on `end_turn`). */
  text: string;
  /**
   * User messages that arrived while the final answer streamed and were not answered: present only
   * with `config.pendingAtEnd: 'return'`, or when a limit stopped the follow-up turn they would start.
   */
  pending?: Message[];
}

/** The typed end of every run. */
export type QueryOutcome =
  | (OutcomeBase & { reason: 'end_turn' | 'max_turns' | 'cancelled' | 'refusal' | 'context_overflow' | 'tool_loop' })
  | (OutcomeBase & { reason: 'budget_exceeded'; costUsd: number; limitUsd: number })
  | (OutcomeBase & { reason: 'error'; error: string; cause?: unknown });
