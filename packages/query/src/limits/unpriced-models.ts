import type { RunState } from '../run-state.js';
import { UnpricedBudgetError } from './unpriced-budget-error.js';

/**
 * With a USD limit on the run's ledger chain (its own budget or the tree's), the first model the
 * run would call without a price (its model, a compaction summary model, a fallback), as an
 * {@link UnpricedBudgetError}; undefined when every model is priced, there is no limit, or the
 * config opts in with `allowUnpricedBudget`.
 */
export function unpricedModel(state: RunState): UnpricedBudgetError | undefined {
  const remaining = state.ledger.remainingUsd();
  if (remaining === undefined || state.config.allowUnpricedBudget === true) return undefined;
  const budget = state.config.budgetUsd ?? remaining;
  const candidates: Array<[string, string]> = [[state.model, state.provider.id]];
  if (state.compaction.summaryModel !== undefined) candidates.push([state.compaction.summaryModel, state.provider.id]);
  for (const fallback of state.fallbacks) candidates.push([fallback.model, (fallback.provider ?? state.provider).id]);
  for (const [model, providerId] of candidates) {
    if (!state.pricer.isPriced(model, providerId)) return new UnpricedBudgetError(model, providerId, budget);
  }
  return undefined;
}
