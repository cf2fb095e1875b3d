import {
  isAbortedError,
  isContextOverflowError,
  isNetworkError,
  isOverloadedError,
  isStreamStallError,
  type LlmError,
  transferHistory,
} from '@boxagnts/api';
import type { FallbackModel } from '../config.js';
import type { StatusEvent } from '../events.js';
import { contextWindowOf, LOOP_DEFAULTS, type RunState } from '../run-state.js';
import { adapterForProvider } from './adapter-for-provider.js';

/** What to do after a failed model call. */
export type TurnRecovery =
  | { action: 'compact'; attempt: number }
  | { action: 'fallback'; next: FallbackModel }
  | { action: 'retry'; attempt: number }
  | { action: 'stop'; reason: 'cancelled' | 'context_overflow' | 'error' };

/**
 * Decides how a run recovers from a failed model call, and counts the attempt in the state:
 * cancelled -> stop; context overflow -> compact (each occurrence, up to
 * `recovery.overflowCompactions` times in a row without a successful call in between, and never
 * while compaction is off or stalled); overloaded -> the next fallback model; a stall or dropped
 * stream -> retry the turn (up to `recovery.streamRetries`); anything else -> stop with the error.
 */
export function recoverTurn(state: RunState, error: LlmError): TurnRecovery {
  if (state.signal.aborted || isAbortedError(error)) return { action: 'stop', reason: 'cancelled' };
  const recovery = state.config.recovery ?? {};
  if (isContextOverflowError(error)) {
    const allowed = recovery.overflowCompactions ?? LOOP_DEFAULTS.overflowCompactions;
    if (!state.compactionEnabled || state.compactionStalled || state.overflowCompactions >= allowed) {
      return { action: 'stop', reason: 'context_overflow' };
    }
    state.overflowCompactions++;
    return { action: 'compact', attempt: state.overflowCompactions };
  }
  if (isOverloadedError(error) && state.fallbacks.length > 0) {
    return { action: 'fallback', next: state.fallbacks.shift() as FallbackModel };
  }
  const streamFailure = isStreamStallError(error) || isNetworkError(error);
  if (streamFailure && state.streamRetries < (recovery.streamRetries ?? LOOP_DEFAULTS.streamRetries)) {
    state.streamRetries++;
    return { action: 'retry', attempt: state.streamRetries };
  }
  return { action: 'stop', reason: 'error' };
}

/** Switches the run to a fallback model (moving the history to its protocol); returns the status to report. */
export function switchToFallback(state: RunState, next: FallbackModel): StatusEvent {
  const provider = state.provider;
  const nextProvider = next.provider ?? provider;
  if (nextProvider !== provider) {
    const transferred = transferHistory(state.messages, {
      from: { adapter: adapterForProvider(provider), providerId: provider.id },
      to: { adapter: next.adapter ?? adapterForProvider(nextProvider), providerId: nextProvider.id },
    });
    state.messages.splice(0, state.messages.length, ...transferred.messages);
  }
  const status: StatusEvent = {
    type: 'status',
    kind: 'fallback',
    message: `${state.model} is overloaded; continuing on ${next.model}${nextProvider !== provider ? ` (${nextProvider.id})` : ''}.`,
    data: { from: state.model, to: next.model, provider: nextProvider.id },
  };
  state.provider = nextProvider;
  state.model = next.model;
  state.contextWindow = contextWindowOf(state.config, nextProvider, next.model);
  return status;
}

/**
 * After a reply cut at max_tokens: `resume` (counted) while resumes are left, else the error text
 * the run ends with.
 */
export function resumeAfterMaxTokens(state: RunState): { resume: true } | { resume: false; error: string } {
  const allowed = state.config.recovery?.maxTokensResumes ?? LOOP_DEFAULTS.maxTokensResumes;
  if (state.maxTokensResumes >= allowed) {
    return {
      resume: false,
      error: `max_tokens: the reply was cut at the output limit ${state.maxTokensResumes + 1} times.`,
    };
  }
  state.maxTokensResumes++;
  return { resume: true };
}
