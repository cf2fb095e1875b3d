import type { Usage } from '@boxagnts/api';
import type { RunState } from './run-state.js';
import { persistUsage } from './session/persist.js';
import type { ModelCallPurpose } from './session/session-store.js';
import { recordCall } from './usage-totals.js';

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
): { costUsd: number | undefined; write: Promise<void> | undefined } {
  const costUsd = state.pricer.cost(model, providerId, usage);
  recordCall(state.usage, model, usage, costUsd, purpose);
  state.ledger.charge(costUsd);
  state.options.toolContext.costs?.add(
    costUsd ?? 0,
    `${purpose === 'turn' ? 'model call' : purpose} ${state.turn} (${model})`,
  );
  const session = state.usageSession;
  const write =
    session?.store.recordUsage === undefined
      ? undefined
      : persistUsage(session, {
          sessionId: session.sessionId,
          provider: providerId,
          model,
          ...(state.config.agent ? { agent: state.config.agent.name } : {}),
          ...(state.subAgentId === undefined ? {} : { subAgent: state.subAgentId }),
          purpose,
          usage,
          ...(costUsd === undefined ? {} : { costUsd }),
        });
  return { costUsd, write };
}
