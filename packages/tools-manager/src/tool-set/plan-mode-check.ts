import { type AnyTool, checkPlanMode, type RunMode, type ToolContext, type ToolResult } from '@boxagnts/tools';
import type { PermissionEngine } from '../types.js';

const PLAN: RunMode = {
  get: () => 'plan',
  set: () => {},
};

/**
 * Refuses a call that plan mode forbids, whether the run is in plan mode (`context.mode`) or the
 * permission engine is: only read-only tools and exit_plan_mode may run. Undefined when it may run.
 */
export function planModeRefusal(
  tool: Pick<AnyTool, 'name' | 'permission'>,
  context: Pick<ToolContext, 'mode'>,
  engine: Pick<PermissionEngine, 'mode'>,
): ToolResult | undefined {
  const inPlan = context.mode?.get() === 'plan' || engine.mode === 'plan';
  return inPlan ? checkPlanMode(tool, { mode: PLAN }) : undefined;
}

/**
 * Keeps the engine's mode in step with the run's: entering plan mode (enter_plan_mode) puts the
 * engine in `plan`, leaving it (exit_plan_mode) restores the engine's mode from before.
 */
export class PlanModeSync {
  private modeBeforePlan: PermissionEngine['mode'] | undefined;

  constructor(private readonly engine: PermissionEngine) {}

  /** Call after a tool ran, with the run's mode before and after the call. */
  update(before: string | undefined, after: string | undefined): void {
    if (before === after) return;
    if (after === 'plan' && this.engine.mode !== 'plan') {
      this.modeBeforePlan = this.engine.mode;
      this.engine.setMode('plan');
    } else if (before === 'plan' && after !== 'plan' && this.engine.mode === 'plan') {
      this.engine.setMode(this.modeBeforePlan ?? 'default');
      this.modeBeforePlan = undefined;
    }
  }
}
