import { addUsage, type Catalogue, type CatalogueModel, computeCost, createUsage, type Usage } from '@boxagnts/api';
import type { RunUsage, UsageTotal } from './outcome.js';
import type { ModelCallPurpose } from './session/session-store.js';

function emptyTotal(): UsageTotal {
  return { calls: 0, usage: createUsage(), costUsd: 0, unpricedCalls: 0 };
}

function addTo(total: UsageTotal, usage: Usage, costUsd: number | undefined): void {
  total.calls++;
  total.usage = addUsage(total.usage, usage);
  if (costUsd === undefined) total.unpricedCalls++;
  else total.costUsd += costUsd;
}

/** Creates empty run usage. */
export function createRunUsage(): RunUsage {
  return { total: emptyTotal(), byModel: {}, bySubAgent: {}, byPurpose: {} };
}

/**
 * The USD cost of one call from the catalogue, or `undefined` when the model has no price there.
 */
export function callCost(
  model: CatalogueModel | string,
  providerId: string,
  usage: Usage,
  catalogue: Catalogue | undefined,
): number | undefined {
  const cost = computeCost(model, usage, catalogue ? { provider: providerId, catalogue } : { provider: providerId });
  return cost.unknown ? undefined : cost.usd;
}

/** Adds one model call of this run to the totals: in total, per model and per purpose (default `turn`). */
export function recordCall(
  totals: RunUsage,
  model: string,
  usage: Usage,
  costUsd: number | undefined,
  purpose: ModelCallPurpose = 'turn',
): void {
  addTo(totals.total, usage, costUsd);
  let byModel = totals.byModel[model];
  if (byModel === undefined) {
    byModel = emptyTotal();
    totals.byModel[model] = byModel;
  }
  addTo(byModel, usage, costUsd);
  // Older callers may hand in totals made before `byPurpose` existed.
  totals.byPurpose ??= {};
  let byPurpose = totals.byPurpose[purpose];
  if (byPurpose === undefined) {
    byPurpose = emptyTotal();
    totals.byPurpose[purpose] = byPurpose;
  }
  addTo(byPurpose, usage, costUsd);
}

/** Adds a finished sub-agent's totals to its parent's: under its id, per model, per purpose and in the total. Call once per sub-agent. */
export function recordSubAgent(totals: RunUsage, agentId: string, child: RunUsage): void {
  const mine = totals.bySubAgent[agentId] ?? emptyTotal();
  merge(mine, child.total);
  totals.bySubAgent[agentId] = mine;
  merge(totals.total, child.total);
  for (const [model, total] of Object.entries(child.byModel)) {
    const byModel = totals.byModel[model] ?? emptyTotal();
    merge(byModel, total);
    totals.byModel[model] = byModel;
  }
  totals.byPurpose ??= {};
  for (const [purpose, total] of Object.entries(child.byPurpose ?? {}) as Array<[ModelCallPurpose, UsageTotal]>) {
    const byPurpose = totals.byPurpose[purpose] ?? emptyTotal();
    merge(byPurpose, total);
    totals.byPurpose[purpose] = byPurpose;
  }
}

function merge(into: UsageTotal, from: UsageTotal): void {
  into.calls += from.calls;
  into.usage = addUsage(into.usage, from.usage);
  into.costUsd += from.costUsd;
  into.unpricedCalls += from.unpricedCalls;
}
