import type { RunMode, ToolContext } from '@boxagnts/tools';
import type { QueryOptions } from '../config.js';

/** An empty object V8 gives spare in-object room (slack tracking of a constructor's instances). */
class ContextRoom {}

/**
 * The tool context every turn and call of a run is copied from, with every key a call's context
 * gets (`agents` too, set per call). V8 copies an object with a spread fast only when its properties
 * sit in the object itself and the copy adds no new keys; `{ ...toolContext, signal, ... }` fails
 * both (about 1.5 µs per copy, then per turn and per call). Built in a {@link ContextRoom}: the copies
 * of it are plain objects like before, with the same keys in the same order.
 */
export function baseToolContext(
  toolContext: QueryOptions['toolContext'],
  signal: AbortSignal,
  mode?: RunMode,
): ToolContext {
  const base = Object.assign(new ContextRoom(), toolContext) as ToolContext;
  base.signal = signal;
  base.turnId = '';
  base.toolCallId = '';
  base.agents = toolContext.agents;
  // The run's mode (plan mode): the host's, or the loop's own, so enter_plan_mode works by default.
  base.mode = mode ?? toolContext.mode;
  return base;
}
