import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { executeTool } from './execute-tool.js';
import { enterPlanModeTool, exitPlanModeTool } from './native/plan-mode.js';
import { checkPlanMode } from './plan-mode-guard.js';
import { testContext } from './test/context.js';
import type { AnyTool, ToolPermission } from './tool.js';
import type { RunMode, ToolContext } from './tool-context.js';
import { resultText, textResult } from './tool-results.js';

function runMode(initial: 'default' | 'plan' = 'default'): RunMode {
  let current = initial;
  return {
    get: () => current,
    set: (mode) => {
      current = mode;
    },
  };
}

function toolWith(permission: ToolPermission, name = `${permission}_tool`): AnyTool {
  return defineTool({
    name,
    description: `A ${permission} tool.`,
    inputSchema: z.object({}),
    permission,
    execute: async () => textResult(`${name} ran`),
  });
}

/** What tools-manager does: the guard first, then the call. */
async function guardedCall(tool: AnyTool, input: unknown, context: ToolContext) {
  return checkPlanMode(tool, context) ?? (await executeTool(tool, input, context));
}

describe('checkPlanMode', () => {
  it('lets every tool through outside plan mode and without a mode', () => {
    for (const permission of ['read-only', 'write', 'execute', 'network'] as const) {
      expect(checkPlanMode(toolWith(permission), testContext({ mode: runMode('default') }))).toBeUndefined();
      expect(checkPlanMode(toolWith(permission), testContext())).toBeUndefined();
    }
  });

  it('in plan mode, lets read-only tools through and refuses the others with a way forward', () => {
    const context = testContext({ mode: runMode('plan') });
    expect(checkPlanMode(toolWith('read-only'), context)).toBeUndefined();
    for (const permission of ['write', 'execute', 'network'] as const) {
      const refused = checkPlanMode(toolWith(permission, 'edit'), context);
      expect(refused?.isError).toBe(true);
      expect(resultText(refused ?? { content: [] })).toBe(
        `Tool "edit" was not run: the run is in plan mode, where only read-only tools are allowed ("edit" needs ${permission} permission). Keep exploring with read-only tools, then call exit_plan_mode with your plan; once the user approves it, call this tool again.`,
      );
      expect(refused?.metadata).toEqual({ planMode: true, tool: 'edit', permission });
    }
  });

  it('always lets exit_plan_mode through, so the run can leave plan mode', () => {
    expect(exitPlanModeTool.permission).not.toBe('read-only');
    expect(checkPlanMode(exitPlanModeTool, testContext({ mode: runMode('plan') }))).toBeUndefined();
  });

  it('enforces the mode the plan tools set, across a whole sequence of calls', async () => {
    const context = testContext({ mode: runMode() });
    const write = toolWith('write', 'write_file');
    const read = toolWith('read-only', 'read_file');

    expect(resultText(await guardedCall(write, {}, context))).toBe('write_file ran');
    await guardedCall(enterPlanModeTool, {}, context);
    const refused = await guardedCall(write, {}, context);
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toContain('plan mode');
    expect(resultText(await guardedCall(read, {}, context))).toBe('read_file ran');

    const exited = await guardedCall(exitPlanModeTool, { plan: 'Write the file.' }, context);
    expect(exited.isError).toBeUndefined();
    expect(resultText(await guardedCall(write, {}, context))).toBe('write_file ran');
  });
});
