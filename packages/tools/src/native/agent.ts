import { z } from 'zod';
import type { SubAgentRequest, SubAgentResult, SubAgentStatus } from '../agent-runner.js';
import { defineTool } from '../define-tool.js';
import type { ToolResult } from '../tool.js';
import type { ToolContext } from '../tool-context.js';
import { errorResult, textResult } from '../tool-results.js';

/** Bounds on `max_turns` of the `agent` tool. */
export const AGENT_MAX_TURNS = { min: 1, max: 100, default: 10 } as const;

/** Bounds on `timeout_seconds` of `agent_status` (action `wait`). */
export const AGENT_WAIT_SECONDS = { min: 1, max: 600, default: 60 } as const;

const NO_RUNNER =
  'Sub-agents are not available in this host: do the task yourself with the tools you have instead of delegating it.';

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The text and metadata of a finished sub-agent run; anything but `completed` is an error result. */
function finishedResult(description: string, result: SubAgentResult, id?: string): ToolResult {
  const metadata: Record<string, unknown> = {
    ...(id === undefined ? {} : { id }),
    status: result.status,
    turns: result.turns,
    ...(result.costUsd === undefined ? {} : { costUsd: result.costUsd }),
  };
  const output = result.output.trim() === '' ? '(the sub-agent gave no output)' : result.output;
  if (result.status === 'completed') return textResult(output, metadata);
  const why: Record<Exclude<SubAgentResult['status'], 'completed'>, string> = {
    failed: `failed${result.error === undefined ? '' : `: ${result.error}`}`,
    cancelled: 'was cancelled',
    max_turns: `stopped after ${result.turns} turns (its max_turns); give it a larger max_turns or a smaller task`,
    budget_exceeded: 'stopped: the cost budget was used up',
  };
  return errorResult(
    `Sub-agent "${description}" ${why[result.status]}. Partial output:\n${output}`,
    result.error === undefined ? metadata : { ...metadata, error: result.error },
  );
}

function statusResult(status: SubAgentStatus): ToolResult {
  if (status.state === 'running') {
    return textResult(
      `Sub-agent ${status.id} ("${status.description}") is still running (${status.turns} turns so far). Wait for it with action "wait" or stop it with "cancel".`,
      { id: status.id, state: 'running', turns: status.turns },
    );
  }
  const finished = finishedResult(status.description, status.result, status.id);
  return { ...finished, metadata: { ...finished.metadata, state: 'done' } };
}

const agentInput = z.object({
  description: z.string().min(1).max(100).describe('A short label for the task (3-5 words), shown to the user.'),
  prompt: z
    .string()
    .min(1)
    .describe(
      'The complete task for the sub-agent. It sees nothing of this conversation: include every path, fact and constraint it needs, and say what its final answer must contain.',
    ),
  tools: z
    .array(z.string().min(1))
    .optional()
    .describe('Names of the tools the sub-agent may use. Default: your own tools, without `agent`.'),
  max_turns: z
    .number()
    .int()
    .min(AGENT_MAX_TURNS.min)
    .max(AGENT_MAX_TURNS.max)
    .default(AGENT_MAX_TURNS.default)
    .describe(`Most model calls the sub-agent may make (${AGENT_MAX_TURNS.min}-${AGENT_MAX_TURNS.max}).`),
  model: z.string().min(1).optional().describe('A model override as `provider/model`; default: your own model.'),
  run_in_background: z
    .boolean()
    .default(false)
    .describe('Start it and return its id at once; follow it with `agent_status`. Default: wait for its answer.'),
});

/**
 * Delegates a self-contained task to a sub-agent through `context.agents`, in the foreground (waits
 * for its answer; cancelled with the call) or in the background (returns an id for `agent_status`).
 *
 * @example
 * const result = await executeTool(agentTool, { description: 'Find open tasks', prompt: 'List every open task in src/.' }, context);
 */
export const agentTool = defineTool({
  name: 'agent',
  description: [
    'Start a sub-agent that works on a task on its own, with its own tools and context, and returns its final answer.',
    'Use it for large, self-contained work that would flood your context (a broad search across many files, research with several steps), or to run independent tasks in parallel with run_in_background.',
    'Do not use it for a single lookup or edit you can do with one or two tool calls, or for work that needs this conversation: the sub-agent sees only your prompt.',
    'Background runs return an id; check or collect them with agent_status.',
  ].join(' '),
  inputSchema: agentInput,
  permission: 'execute',
  execute: async (input, context: ToolContext) => {
    const runner = context.agents;
    if (runner === undefined) return errorResult(NO_RUNNER);
    const request: SubAgentRequest = {
      description: input.description,
      prompt: input.prompt,
      maxTurns: input.max_turns,
      ...(input.tools === undefined ? {} : { tools: input.tools }),
      ...(input.model === undefined ? {} : { model: input.model }),
    };
    if (input.run_in_background) {
      try {
        const { id } = await runner.start(request);
        return textResult(
          `Started sub-agent ${id} ("${input.description}") in the background. Check it with agent_status { "id": "${id}", "action": "status" } or collect its answer with action "wait".`,
          { id, state: 'running' },
        );
      } catch (error) {
        return errorResult(`Could not start sub-agent "${input.description}": ${errorMessage(error)}`);
      }
    }
    let result: SubAgentResult;
    try {
      result = await runner.run(request, context.signal);
    } catch (error) {
      if (context.signal.aborted) return errorResult(`Sub-agent "${input.description}" was cancelled.`);
      return errorResult(`Sub-agent "${input.description}" failed to run: ${errorMessage(error)}`);
    }
    if (result.costUsd !== undefined) context.costs?.add(result.costUsd, `agent: ${input.description}`);
    return finishedResult(input.description, result);
  },
});

const agentStatusInput = z.object({
  id: z.string().min(1).describe('The id `agent` returned for a background run.'),
  action: z
    .enum(['status', 'wait', 'cancel'])
    .default('status')
    .describe('"status": report at once; "wait": wait until it finishes (at most timeout_seconds); "cancel": stop it.'),
  timeout_seconds: z
    .number()
    .int()
    .min(AGENT_WAIT_SECONDS.min)
    .max(AGENT_WAIT_SECONDS.max)
    .default(AGENT_WAIT_SECONDS.default)
    .describe(`For "wait": longest to wait, in seconds (${AGENT_WAIT_SECONDS.min}-${AGENT_WAIT_SECONDS.max}).`),
});

/**
 * Follows a background sub-agent started by {@link agentTool}: its state, its answer once done
 * (waiting for it if asked), or cancelling it.
 */
export const agentStatusTool = defineTool({
  name: 'agent_status',
  description: [
    'Check, wait for, or cancel a sub-agent started with agent and run_in_background: true.',
    'Returns its state and, once it is done, its final answer.',
    'Only for background runs: a foreground agent call already returns the answer.',
  ].join(' '),
  inputSchema: agentStatusInput,
  permission: 'read-only',
  execute: async ({ id, action, timeout_seconds }, context: ToolContext) => {
    const runner = context.agents;
    if (runner === undefined) return errorResult(NO_RUNNER);
    const unknown = () =>
      errorResult(`No sub-agent with id "${id}": use the id that agent returned for a background run.`);
    try {
      if (action === 'cancel') {
        const before = await runner.status(id);
        if (before === undefined) return unknown();
        if (before.state === 'done') {
          return textResult(`Sub-agent ${id} had already finished (${before.result.status}); nothing to cancel.`, {
            id,
            state: 'done',
            status: before.result.status,
          });
        }
        const cancelled = await runner.cancel(id);
        return cancelled
          ? textResult(`Cancelled sub-agent ${id} ("${before.description}").`, { id, state: 'cancelled' })
          : errorResult(`Sub-agent ${id} could not be cancelled; check its status.`, { id });
      }
      const status =
        action === 'wait' ? await runner.wait(id, timeout_seconds * 1000, context.signal) : await runner.status(id);
      if (status === undefined) return unknown();
      return statusResult(status);
    } catch (error) {
      if (context.signal.aborted) return errorResult(`Stopped waiting for sub-agent ${id}: the call was cancelled.`);
      return errorResult(`Could not ${action} sub-agent ${id}: ${errorMessage(error)}`);
    }
  },
});
