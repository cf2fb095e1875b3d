import { setMaxListeners } from 'node:events';
import type { LlmCallOptions } from '@boxagnts/api';

/**
 * The signal of a run that nothing can cancel (the caller gave no signal and the run has no
 * timeout): one shared signal that never aborts, instead of an AbortController per run (about
 * 4 µs each: a fresh EventTarget whose prototype is swapped). Tool calls register on it through
 * `executeTool`'s one listener per signal; sub-agents add and remove theirs as on a run's own signal.
 */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;
// The sub-agents of every such run may listen on it at once: no "possible leak" warning past 10.
setMaxListeners(0, NEVER_ABORTED);

const NO_CALL_OPTIONS: LlmCallOptions = Object.freeze({});

/**
 * The options of a model call on `signal`. A run that cannot be cancelled passes no signal: a
 * provider that never removes its listener (a fetch that only lets go when collected) would
 * otherwise pile them up on the shared signal.
 */
export function callOptions(signal: AbortSignal): LlmCallOptions {
  return signal === NEVER_ABORTED ? NO_CALL_OPTIONS : { signal };
}
