import { describe, expect, it } from 'vitest';
import { executeTool } from '../execute-tool.js';
import { testContext } from '../test/context.js';
import type { RunMode } from '../tool-context.js';
import { resultText } from '../tool-results.js';
import { enterPlanModeTool, exitPlanModeTool } from './plan-mode.js';

function runMode(initial: 'default' | 'plan' = 'default'): RunMode {
  let current = initial;
  return {
    get: () => current,
    set: (mode) => {
      current = mode;
    },
  };
}

describe('enter_plan_mode and exit_plan_mode', () => {
  it('enters plan mode, then exits with the plan for approval', async () => {
    const mode = runMode();
    const context = testContext({ mode });
    const entered = await executeTool(enterPlanModeTool, {}, context);
    expect(entered.isError).toBeUndefined();
    expect(resultText(entered)).toContain('Plan mode is on');
    expect(mode.get()).toBe('plan');

    const plan = '1. Read src/a.ts\n2. Rename `foo` to `bar`\n3. Run the tests';
    const exited = await executeTool(exitPlanModeTool, { plan }, context);
    expect(exited.isError).toBeUndefined();
    expect(resultText(exited)).toBe(`Plan mode is off. The plan, for the user to approve:\n\n${plan}`);
    expect(exited.metadata).toEqual({ mode: 'default', plan });
    expect(mode.get()).toBe('default');
  });

  it('refuses to enter twice and leaves the mode as it is', async () => {
    const mode = runMode('plan');
    const result = await executeTool(enterPlanModeTool, {}, testContext({ mode }));
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('Already in plan mode');
    expect(mode.get()).toBe('plan');
  });

  it('refuses to exit when not in plan mode', async () => {
    const mode = runMode('default');
    const result = await executeTool(exitPlanModeTool, { plan: 'Do it.' }, testContext({ mode }));
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('Not in plan mode');
    expect(mode.get()).toBe('default');
  });

  it('says plan mode is not supported when the host has no mode', async () => {
    for (const [tool, input] of [
      [enterPlanModeTool, {}],
      [exitPlanModeTool, { plan: 'Do it.' }],
    ] as const) {
      const result = await executeTool(tool, input, testContext());
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain('Plan mode is not supported by this host');
    }
  });

  it('refuses an empty or missing plan and stays in plan mode', async () => {
    const mode = runMode('plan');
    const empty = await executeTool(exitPlanModeTool, { plan: '  \n ' }, testContext({ mode }));
    expect(empty.isError).toBe(true);
    expect(resultText(empty)).toContain('The plan is empty');
    const missing = await executeTool(exitPlanModeTool, {}, testContext({ mode }));
    expect(missing.isError).toBe(true);
    expect(resultText(missing)).toContain('plan');
    expect(mode.get()).toBe('plan');
  });

  it('does not switch when the run is already cancelled', async () => {
    const mode = runMode();
    const controller = new AbortController();
    controller.abort();
    const result = await executeTool(enterPlanModeTool, {}, testContext({ mode, signal: controller.signal }));
    expect(result.isError).toBe(true);
    expect(mode.get()).toBe('default');
  });

  it('asks the user when it can, and leaves plan mode only on approval', async () => {
    const mode = runMode('plan');
    const questions: string[] = [];
    const answers = ['Make step 2 smaller', 'Approve'];
    const context = testContext({
      mode,
      ask: async (question) => {
        questions.push(question.question);
        return { answered: true, answer: answers.shift() as string };
      },
    });
    const refused = await executeTool(exitPlanModeTool, { plan: 'Step 1. Step 2.' }, context);
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toContain('Make step 2 smaller');
    expect(mode.get()).toBe('plan');
    const approved = await executeTool(exitPlanModeTool, { plan: 'Step 1. Step 2a. Step 2b.' }, context);
    expect(approved.isError).toBeUndefined();
    expect(approved.metadata).toMatchObject({ approved: true });
    expect(mode.get()).toBe('default');
    expect(questions[1]).toContain('Step 2b');
  });

  it('stays in plan mode when nobody can answer the approval question', async () => {
    const mode = runMode('plan');
    const context = testContext({ mode, ask: async () => ({ answered: false, reason: 'non-interactive run' }) });
    const result = await executeTool(exitPlanModeTool, { plan: 'Do it.' }, context);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('non-interactive run');
    expect(mode.get()).toBe('plan');
  });

  it('declares the permissions the guard relies on', () => {
    expect(enterPlanModeTool.permission).toBe('read-only');
    expect(exitPlanModeTool.permission).toBe('write');
    expect(enterPlanModeTool.concurrencySafe).toBe(false);
    expect(exitPlanModeTool.concurrencySafe).toBe(false);
  });
});
