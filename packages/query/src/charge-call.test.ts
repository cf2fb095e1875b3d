import type { Usage } from '@boxagnts/api';
import { describe, expect, it } from 'vitest';
import { chargeCall } from './charge-call.js';
import { BudgetLedger } from './limits/budget-ledger.js';
import { createMemorySessionStore } from './session/session-store.js';
import { testRunState } from './test/run-state.js';

const USAGE: Usage = {
  input: { total: 100_000, noCache: 100_000, cacheRead: 0, cacheWrite: 0 },
  output: { total: 0, text: 0, reasoning: 0 },
};

describe('chargeCall', () => {
  it('charges the totals by purpose, the ledger chain and the store with the same cost', async () => {
    const store = createMemorySessionStore();
    const tree = new BudgetLedger(10);
    const state = testRunState({}, { parentLedger: tree, options: { session: { store, sessionId: 's1' } } });
    const charged = chargeCall(state, 'claude-sonnet-4-6', 'anthropic', USAGE, 'compaction');
    await charged.write;
    expect(charged.costUsd).toBeCloseTo(0.3, 9);
    expect(state.usage.byPurpose.compaction).toMatchObject({ calls: 1 });
    expect(tree.spentUsd).toBeCloseTo(0.3, 9);
    expect(store.usageRecords()).toMatchObject([
      { sessionId: 's1', provider: 'anthropic', model: 'claude-sonnet-4-6', purpose: 'compaction' },
    ]);
    expect(store.usageRecords()[0]?.costUsd).toBeCloseTo(0.3, 9);
  });
});
