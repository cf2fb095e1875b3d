/**
 * The USD ledger of one agent, chained to the ledger of the agent that started it, so one tree of
 * agents shares one account: every model call of every agent charges its own ledger and each
 * ancestor's as it completes, and every call consults them all before it starts. A ledger without
 * a limit only passes charges up.
 *
 * Bound: a call starts only while no ledger on its chain is at its limit, so a tree's spend ends at
 * most `limit + k × c`, where `k` is the number of calls in flight when the limit is crossed (at
 * most one per running agent: the sub-agents running at once plus the top run) and `c` the cost of
 * the most expensive single call.
 */
export class BudgetLedger {
  /** USD charged to this ledger (its own calls and those of every ledger below it). */
  spentUsd = 0;
  /** Calls charged to this ledger that had no price. */
  unpricedCalls = 0;

  constructor(
    /** USD this ledger may spend; undefined for none. */
    readonly limitUsd: number | undefined,
    private readonly parent?: BudgetLedger,
  ) {}

  /** The nearest ledger on the chain that has reached its limit, or undefined when a call may start. */
  exhausted(): BudgetLedger | undefined {
    for (let ledger: BudgetLedger | undefined = this; ledger !== undefined; ledger = ledger.parent) {
      if (ledger.limitUsd !== undefined && ledger.spentUsd >= ledger.limitUsd) return ledger;
    }
    return undefined;
  }

  /** Charges one finished call (undefined: unpriced, counted apart) to this ledger and every ancestor. */
  charge(costUsd: number | undefined): void {
    for (let ledger: BudgetLedger | undefined = this; ledger !== undefined; ledger = ledger.parent) {
      if (costUsd === undefined) ledger.unpricedCalls++;
      else ledger.spentUsd += costUsd;
    }
  }

  /** USD left before the nearest limit on the chain, or undefined when no ledger has a limit. */
  remainingUsd(): number | undefined {
    let remaining: number | undefined;
    for (let ledger: BudgetLedger | undefined = this; ledger !== undefined; ledger = ledger.parent) {
      if (ledger.limitUsd === undefined) continue;
      const left = ledger.limitUsd - ledger.spentUsd;
      remaining = remaining === undefined ? left : Math.min(remaining, left);
    }
    return remaining;
  }
}
