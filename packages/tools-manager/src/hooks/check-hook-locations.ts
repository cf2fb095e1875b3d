import { ToolSetError } from '../tool-set/tool-set-error.js';
import type { ToolHooks } from '../types.js';
import { hookLabel, isCommandHook } from './hook-label.js';
import { checkHookLocation } from './hook-location.js';

/**
 * Refuses a tool set whose command hooks would run from an agents' root: throws a `ToolSetError`
 * (`unsafe-hook`) naming the first such hook and saying what to change. Without roots there is
 * nothing to check yet; every run still checks against the call's root.
 */
export function checkHookLocations(hooks: ToolHooks, roots: readonly string[]): void {
  if (roots.length === 0) return;
  for (const phase of ['before', 'after'] as const) {
    const list = (phase === 'before' ? hooks.beforeTool : hooks.afterTool) ?? [];
    for (const [index, hook] of list.entries()) {
      if (!isCommandHook(hook)) continue;
      const location = checkHookLocation(hook, roots);
      if (location.ok) continue;
      throw new ToolSetError({
        reason: 'unsafe-hook',
        message: `Hook ${hookLabel(phase, index, hook)} cannot be used: ${location.message}.`,
      });
    }
  }
}
