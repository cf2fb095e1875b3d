import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { errorResult, textResult } from '../tool-results.js';

/** Name of the tool that enters plan mode. */
export const ENTER_PLAN_MODE_TOOL_NAME = 'enter_plan_mode';
/** Name of the tool that leaves plan mode; the plan-mode guard lets it through. */
export const EXIT_PLAN_MODE_TOOL_NAME = 'exit_plan_mode';

/** The answer that approves a plan when exit_plan_mode asks the user. */
const APPROVE = 'Approve';

const NOT_SUPPORTED =
  'Plan mode is not supported by this host. Do not retry: plan in your reply instead, and ask before making changes.';

/**
 * Switches the run into plan mode, where only read-only tools may run (tools-manager enforces it
 * with `checkPlanMode`), so the model explores and plans before it changes anything.
 */
export const enterPlanModeTool = defineTool({
  name: ENTER_PLAN_MODE_TOOL_NAME,
  description: [
    'Enter plan mode: from now on only read-only tools (reading, searching, listing) may run; edits, commands and',
    'network calls are refused until you leave it with exit_plan_mode and the user approves your plan.',
    'Use it before a non-trivial change (several files, an unclear approach, a risky refactor) to explore and plan',
    'first. Do not use it for small, obvious changes or for pure questions.',
  ].join(' '),
  inputSchema: z.object({}),
  permission: 'read-only',
  concurrencySafe: false,
  execute: async (_input, context) => {
    if (context.mode === undefined) return errorResult(NOT_SUPPORTED);
    if (context.mode.get() === 'plan') {
      return errorResult('Already in plan mode. Keep exploring, then call exit_plan_mode with your plan.');
    }
    context.mode.set('plan');
    return textResult(
      'Plan mode is on: only read-only tools will run. Explore the code, then call exit_plan_mode with a concrete plan ' +
        'for the user to approve.',
      { mode: 'plan' },
    );
  },
});

/**
 * Leaves plan mode with the plan as its argument. When the context can ask the user, the plan is
 * put to them first and plan mode ends only on "Approve" (any other answer keeps it on, with the
 * answer in the result); without a user the plan is returned for the host to show. Write tools
 * are allowed again afterwards.
 */
export const exitPlanModeTool = defineTool({
  name: EXIT_PLAN_MODE_TOOL_NAME,
  description: [
    'Leave plan mode and present your plan for the user to approve; afterwards all your tools may run again.',
    'Call it only in plan mode, once you have explored enough to write a concrete plan: the steps in order, the files',
    'to change and how, and how you will verify the result. Do not call it to ask a question (use',
    'ask_user_question) or outside plan mode.',
  ].join(' '),
  inputSchema: z.object({
    plan: z
      .string()
      .trim()
      .min(1, 'The plan is empty: write the steps you will take, then call exit_plan_mode again.')
      .max(50_000)
      .describe('The plan, in Markdown: ordered steps, files to change and how, and how you will verify the result.'),
  }),
  // Not read-only: leaving plan mode unlocks every other tool, so permission rules can make it `ask`.
  permission: 'write',
  concurrencySafe: false,
  execute: async ({ plan }, context) => {
    if (context.mode === undefined) return errorResult(NOT_SUPPORTED);
    if (context.mode.get() !== 'plan') {
      return errorResult('Not in plan mode, so there is nothing to exit. Go on with the task (no need to call this).');
    }
    if (context.ask !== undefined) {
      // A user is there: plan mode ends only when they approve the plan.
      const answer = await context.ask(
        {
          question: `Approve this plan?\n\n${plan}`,
          options: [
            { label: APPROVE, description: 'Leave plan mode and carry out the plan.' },
            { label: 'Keep planning', description: 'Stay in plan mode; say what to change.' },
          ],
        },
        context.signal,
      );
      if (!answer.answered || answer.answer.trim().toLowerCase() !== APPROVE.toLowerCase()) {
        const why = answer.answered ? `The user answered: ${answer.answer}` : `No approval: ${answer.reason}`;
        return errorResult(
          `The plan was not approved, so plan mode stays on (only read-only tools run). ${why}. Revise the plan, then call exit_plan_mode again.`,
          { mode: 'plan', plan, approved: false },
        );
      }
      context.mode.set('default');
      return textResult(`Plan mode is off: the user approved the plan. Carry it out now.\n\n${plan}`, {
        mode: 'default',
        plan,
        approved: true,
      });
    }
    context.mode.set('default');
    return textResult(`Plan mode is off. The plan, for the user to approve:\n\n${plan}`, {
      mode: 'default',
      plan,
    });
  },
});
