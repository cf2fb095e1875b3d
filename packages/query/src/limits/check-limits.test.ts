import { describe, expect, it } from 'vitest';
import { testRunState } from '../test/run-state.js';
import { BudgetLedger } from './budget-ledger.js';
import { checkLimits, mayCall } from './check-limits.js';

describe('checkLimits', () => {
  it('stops on cancellation first, then max turns, tree turns and the budget', () => {
    const controller = new AbortController();
    const state = testRunState({ maxTurns: 2, budgetUsd: 1 }, { signal: controller.signal });
    expect(checkLimits(state)).toBeUndefined();
    state.turn = 2;
    expect(checkLimits(state)).toEqual({ reason: 'max_turns' });
    controller.abort();
    expect(checkLimits(state)).toEqual({ reason: 'cancelled' });
    expect(mayCall(state)).toBe(false);
  });

  it("stops a child when the tree's ledger above it is spent, with the tree's numbers", () => {
    const tree = new BudgetLedger(1);
    const state = testRunState({}, { parentLedger: tree });
    state.tree.maxTreeTurns = 5;
    expect(checkLimits(state)).toBeUndefined();
    tree.charge(1.2);
    expect(checkLimits(state)).toEqual({ reason: 'budget_exceeded', costUsd: 1.2, limitUsd: 1 });
    expect(mayCall(state)).toBe(false);
    state.tree.turns.count = 5;
    expect(checkLimits(state)).toEqual({ reason: 'max_turns' });
  });
});
