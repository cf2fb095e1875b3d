import type { Usage } from '@boxagnts/api';
import type { RunState } from './run-state.js';
import { persistUsage } from './session/persist.js';
import type { ModelCallPurpose, ModelCallRecord } from './session/session-store.js';
import { recordCall } from './usage-totals.js';

/** A charged call: its cost and the store write to await, if any. */
export interface ChargedCall {
  costUsd: number | undefined;
  write: Promise<void> | undefined;
}

/**
 * Charges one finished model call of a run, whatever it was for: prices it, adds it to the run's
 * totals (by model and purpose), to the tree's ledger, to the host's cost tracker, and records it
 * in the store's usage (when the store records usage). Returns the call's USD cost (undefined:
 * no price) and the store write to await, if any.
 */
export function chargeCall(
  state: RunState,
  model: string,
  providerId: string,
  usage: Usage,
  purpose: ModelCallPurpose,
): ChargedCall {
  const costUsd = state.pricer.cost(model, providerId, usage);
  recordCall(state.usage, model, usage, costUsd, purpose);
  state.ledger.charge(costUsd);
  state.options.toolContext.costs?.add(
    costUsd ?? 0,
    `${purpose === 'turn' ? 'model call' : purpose} ${state.turn} (${model})`,
  );
  const session = state.usageSession;
  let write: Promise<void> | undefined;
  if (session?.store.recordUsage !== undefined) {
    // A literal with the cost in it when there is one (a store keeps every record of a run): a
    // field added after the literal goes to a separate property array, 40 bytes more per record.
    const createdAt = Date.now();
    const sessionId = session.sessionId;
    const record: ModelCallRecord =
      costUsd === undefined
        ? { sessionId, provider: providerId, model, purpose, usage, createdAt }
        : { sessionId, provider: providerId, model, purpose, usage, createdAt, costUsd };
    if (state.config.agent) record.agent = state.config.agent.name;
    if (state.subAgentId !== undefined) record.subAgent = state.subAgentId;
    write = persistUsage(session, record);
  }
  return { costUsd, write };
}
