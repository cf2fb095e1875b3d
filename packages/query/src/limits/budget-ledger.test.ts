import { describe, expect, it } from 'vitest';
import { BudgetLedger } from './budget-ledger.js';

describe('BudgetLedger', () => {
  it('charges every ancestor and reports the nearest exhausted ledger', () => {
    const tree = new BudgetLedger(1);
    const child = new BudgetLedger(0.5, tree);
    const sibling = new BudgetLedger(undefined, tree);
    child.charge(0.3);
    sibling.charge(0.3);
    expect(tree.spentUsd).toBeCloseTo(0.6);
    expect(child.exhausted()).toBeUndefined();
    child.charge(0.25);
    expect(child.exhausted()).toBe(child);
    expect(sibling.exhausted()).toBeUndefined();
    sibling.charge(0.2);
    expect(sibling.exhausted()).toBe(tree);
    expect(sibling.remainingUsd()).toBeCloseTo(-0.05);
  });

  it('counts unpriced calls apart and never as spend', () => {
    const tree = new BudgetLedger(1);
    new BudgetLedger(undefined, tree).charge(undefined);
    expect(tree.unpricedCalls).toBe(1);
    expect(tree.spentUsd).toBe(0);
    expect(new BudgetLedger(undefined).remainingUsd()).toBeUndefined();
  });
});
