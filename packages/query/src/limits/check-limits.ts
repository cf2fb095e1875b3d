import type { RunState } from '../run-state.js';

/** Why a run must stop before its next model call. */
export type LimitStop =
  | { reason: 'cancelled' }
  | { reason: 'max_turns' }
  | { reason: 'budget_exceeded'; costUsd: number; limitUsd: number };

/**
 * Checks the limits that hold before every model call: cancellation, the run's max turns, the
 * tree's turns, and the USD ledgers of the run and of every agent above it (the tree's budget).
 * Returns why the run must stop, or undefined when the call may start.
 */
export function checkLimits(state: RunState): LimitStop | undefined {
  if (state.signal.aborted) return { reason: 'cancelled' };
  if (state.turn >= state.maxTurns) return { reason: 'max_turns' };
  const { tree } = state;
  if (tree.maxTreeTurns !== undefined && tree.turns.count >= tree.maxTreeTurns) return { reason: 'max_turns' };
  const exhausted = state.ledger.exhausted();
  if (exhausted !== undefined) {
    return { reason: 'budget_exceeded', costUsd: exhausted.spentUsd, limitUsd: exhausted.limitUsd as number };
  }
  return undefined;
}

/** Whether an auxiliary call (a compaction summary) may start now: not cancelled, no ledger at its limit. */
export function mayCall(state: RunState): boolean {
  return !state.signal.aborted && state.ledger.exhausted() === undefined;
}
