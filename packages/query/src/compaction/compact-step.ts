import { chargeCall } from '../charge-call.js';
import type { QueryEvent, TokenPressureEvent } from '../events.js';
import { mayCall } from '../limits/check-limits.js';
import { LOOP_DEFAULTS, type RunState } from '../run-state.js';
import { persist } from '../session/persist.js';
import { messageToolResultChars } from '../tools/trim-tool-results.js';
import { compactHistory } from './compact-history.js';
import { estimateTokens } from './estimate-tokens.js';

/** The run's token estimate: the last reported usage plus characters / 4 of what was added since. */
export function contextTokens(state: RunState): number {
  return state.lastInputTokens + Math.ceil(state.charsSinceUsage / 4);
}

/** The token-pressure event to report when the level changed (and records the new level). */
export function pressureEvent(state: RunState, tokens: number): TokenPressureEvent | undefined {
  const critical = state.compaction.criticalThreshold ?? LOOP_DEFAULTS.criticalThreshold;
  const warning = state.compaction.warningThreshold ?? LOOP_DEFAULTS.warningThreshold;
  const window = state.contextWindow;
  const level = tokens >= window * critical ? 'critical' : tokens >= window * warning ? 'warning' : 'none';
  const changed = level !== 'none' && level !== state.pressure;
  state.pressure = level;
  return changed ? { type: 'token-pressure', level, tokens, contextWindow: window } : undefined;
}

function threshold(state: RunState): number {
  return state.contextWindow * (state.compaction.threshold ?? LOOP_DEFAULTS.compactThreshold);
}

/** Whether the run should compact before its next call. */
export function shouldCompact(state: RunState, tokens: number): boolean {
  return state.compactionEnabled && !state.compactionStalled && tokens >= threshold(state);
}

/**
 * The one compaction path of a run, used both before a call (`overflow: false`, the estimate is
 * over the threshold) and after the provider said the context overflowed (`overflow: true`, forced,
 * to half the window). Replaces the history, stores the summary, charges the summary calls to
 * usage, cost and budget (purpose `compaction`), and keeps the stall guard: compaction that twice
 * in a row changes nothing or leaves the context over the threshold is switched off for the run.
 * Returns whether the history changed.
 */
export async function* compactRun(
  state: RunState,
  tokens: number,
  overflow: boolean,
): AsyncGenerator<QueryEvent, boolean> {
  const window = state.contextWindow;
  const compacted = yield* compactHistory({
    messages: state.messages,
    provider: state.provider,
    model: state.model,
    config: state.compaction,
    signal: state.signal,
    targetTokens: Math.floor(overflow ? window * 0.5 : threshold(state) * 0.6),
    tokens: overflow ? window : tokens,
    mayCall: () => mayCall(state),
    ...(overflow ? { force: true } : {}),
    ...(state.config.agent ? { agent: state.config.agent } : {}),
    ...(state.config.agentsMd ? { agentsMd: state.config.agentsMd } : {}),
  });
  for (const call of compacted.calls ?? []) {
    const charged = chargeCall(state, call.model, state.provider.id, call.usage, 'compaction');
    if (charged.write) await charged.write;
    yield {
      type: 'usage',
      turn: state.turn,
      model: call.model,
      usage: call.usage,
      costUsd: charged.costUsd,
      totals: state.usage,
      purpose: 'compaction',
    };
  }
  let after = tokens;
  if (compacted.changed) {
    state.messages.splice(0, state.messages.length, ...compacted.messages);
    after = estimateTokens(state.messages);
    state.lastInputTokens = 0;
    state.charsSinceUsage = after * 4;
    let toolChars = 0;
    for (const message of state.messages) toolChars += messageToolResultChars(message);
    state.toolChars = toolChars;
    if (compacted.summaryMessage) {
      await persist(state.session, [
        { message: compacted.summaryMessage, compaction: { keptMessages: compacted.keptMessages ?? 0 } },
      ]);
    }
  }
  const fruitless = !compacted.changed || after >= threshold(state);
  state.fruitlessCompactions = fruitless ? state.fruitlessCompactions + 1 : 0;
  if (state.fruitlessCompactions >= 2 && !state.compactionStalled) {
    state.compactionStalled = true;
    yield {
      type: 'status',
      kind: 'compacted',
      message: 'Compaction cannot shrink the context further; it is off for the rest of this run.',
      data: { phase: 'stalled' },
    };
  }
  return compacted.changed;
}
