import { setMaxListeners } from 'node:events';
import type { LlmCallOptions } from '@boxagnts/api';

/**
 * The signal of a run that nothing can cancel (the caller gave no signal and the run has no
 * timeout): one shared signal that never aborts, instead of an AbortController per run (about
 * 4 µs each: a fresh EventTarget whose prototype is swapped). Tool calls and sub-agents add and
 * remove their listeners on it as they would on a run's own signal.
 */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;
// The running tool calls of every such run listen on it at once: no "possible leak" warning past 10.
setMaxListeners(0, NEVER_ABORTED);
// A listener that stays (and never runs): each tool call adds and removes its own, and an event
// target whose last listener goes drops its list, which the next call would have to make again.
NEVER_ABORTED.addEventListener('abort', () => undefined);

const NO_CALL_OPTIONS: LlmCallOptions = Object.freeze({});

/**
 * The options of a model call on `signal`. A run that cannot be cancelled passes no signal: a
 * provider that never removes its listener (a fetch that only lets go when collected) would
 * otherwise pile them up on the shared signal.
 */
export function callOptions(signal: AbortSignal): LlmCallOptions {
  return signal === NEVER_ABORTED ? NO_CALL_OPTIONS : { signal };
}
