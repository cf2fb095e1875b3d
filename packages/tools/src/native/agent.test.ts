import { describe, expect, it } from 'vitest';
import type { AgentRunner, SubAgentRequest, SubAgentResult, SubAgentStatus } from '../agent-runner.js';
import { executeTool } from '../execute-tool.js';
import { testContext } from '../test/context.js';
import type { CostTracker } from '../tool-context.js';
import { resultText } from '../tool-results.js';
import { agentStatusTool, agentTool } from './agent.js';

type Outcome = SubAgentResult | 'hang' | Error;

interface BackgroundRun {
  request: SubAgentRequest;
  result?: SubAgentResult;
  settle: (result: SubAgentResult) => void;
  done: Promise<void>;
}

/** A deterministic AgentRunner: records requests; each run ends as the test scripted it. */
class FakeAgentRunner implements AgentRunner {
  readonly requests: SubAgentRequest[] = [];
  readonly signals: AbortSignal[] = [];
  readonly waits: number[] = [];
  readonly background = new Map<string, BackgroundRun>();
  private nextId = 1;

  constructor(private readonly outcome: Outcome = completed('done')) {}

  run(request: SubAgentRequest, signal: AbortSignal): Promise<SubAgentResult> {
    this.requests.push(request);
    this.signals.push(signal);
    const outcome = this.outcome;
    if (outcome instanceof Error) return Promise.reject(outcome);
    if (outcome !== 'hang') return Promise.resolve(outcome);
    return new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
  }

  async start(request: SubAgentRequest): Promise<{ id: string }> {
    this.requests.push(request);
    const id = `agent-${this.nextId++}`;
    let settle: (result: SubAgentResult) => void = () => {};
    const done = new Promise<void>((resolve) => {
      settle = (result) => {
        run.result = result;
        resolve();
      };
    });
    const run: BackgroundRun = { request, settle, done };
    this.background.set(id, run);
    return { id };
  }

  async status(id: string): Promise<SubAgentStatus | undefined> {
    const run = this.background.get(id);
    if (run === undefined) return undefined;
    const description = run.request.description;
    return run.result === undefined
      ? { id, state: 'running', description, turns: 2 }
      : { id, state: 'done', description, result: run.result };
  }

  async wait(id: string, timeoutMs: number, signal: AbortSignal): Promise<SubAgentStatus | undefined> {
    this.waits.push(timeoutMs);
    const run = this.background.get(id);
    if (run === undefined) return undefined;
    if (run.result === undefined) {
      await new Promise<void>((resolve, reject) => {
        run.done.then(resolve);
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      });
    }
    return this.status(id);
  }

  async cancel(id: string): Promise<boolean> {
    const run = this.background.get(id);
    if (run === undefined || run.result !== undefined) return false;
    run.settle({ status: 'cancelled', output: '', turns: 2 });
    return true;
  }
}

function completed(output: string, extra: Partial<SubAgentResult> = {}): SubAgentResult {
  return { status: 'completed', output, turns: 3, costUsd: 0.02, ...extra };
}

function costTracker(): CostTracker & { entries: Array<[number, string]> } {
  const entries: Array<[number, string]> = [];
  return { entries, add: (cost, label) => entries.push([cost, label]), total: () => 0 };
}

describe('agent', () => {
  it('runs a sub-agent in the foreground and returns its output with status, turns and cost', async () => {
    const runner = new FakeAgentRunner(completed('Found 3 open tasks.'));
    const costs = costTracker();
    const result = await executeTool(
      agentTool,
      {
        description: 'Find open tasks',
        prompt: 'List the open tasks in src/.',
        tools: ['grep'],
        model: 'anthropic/claude',
      },
      testContext({ agents: runner, costs }),
    );
    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toBe('Found 3 open tasks.');
    expect(result.metadata).toEqual({ status: 'completed', turns: 3, costUsd: 0.02 });
    expect(runner.requests).toEqual([
      {
        description: 'Find open tasks',
        prompt: 'List the open tasks in src/.',
        tools: ['grep'],
        maxTurns: 10,
        model: 'anthropic/claude',
      },
    ]);
    expect(costs.entries).toEqual([[0.02, 'agent: Find open tasks']]);
  });

  it('passes max_turns and leaves out unset options', async () => {
    const runner = new FakeAgentRunner();
    await executeTool(agentTool, { description: 'x', prompt: 'y', max_turns: 42 }, testContext({ agents: runner }));
    expect(runner.requests).toEqual([{ description: 'x', prompt: 'y', maxTurns: 42 }]);
  });

  it.each([
    [
      { status: 'failed', output: 'half', turns: 2, error: 'model error' },
      /failed: model error\. Partial output:\nhalf/,
    ],
    [
      { status: 'max_turns', output: 'part', turns: 10 },
      /stopped after 10 turns .*larger max_turns.*\. Partial output:\npart/s,
    ],
    [
      { status: 'cancelled', output: '', turns: 1 },
      /was cancelled\. Partial output:\n\(the sub-agent gave no output\)/,
    ],
    [{ status: 'budget_exceeded', output: 'so far', turns: 4 }, /cost budget was used up/],
  ] as const)('answers a %o run with an error result and the partial output', async (outcome, message) => {
    const result = await executeTool(
      agentTool,
      { description: 'Task', prompt: 'p' },
      testContext({
        agents: new FakeAgentRunner(outcome),
      }),
    );
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(message);
    expect(result.metadata).toMatchObject({ status: outcome.status, turns: outcome.turns });
  });

  it('turns a runner that throws into an error result', async () => {
    const result = await executeTool(
      agentTool,
      { description: 'Task', prompt: 'p' },
      testContext({
        agents: new FakeAgentRunner(new Error('no model configured')),
      }),
    );
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe('Sub-agent "Task" failed to run: no model configured');
  });

  it('passes the abort through to run', async () => {
    const runner = new FakeAgentRunner('hang');
    const controller = new AbortController();
    const pending = executeTool(
      agentTool,
      { description: 'Long', prompt: 'p' },
      testContext({
        agents: runner,
        signal: controller.signal,
      }),
    );
    await Promise.resolve();
    expect(runner.signals).toHaveLength(1);
    expect(runner.signals[0]?.aborted).toBe(false);
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/cancelled/);
    expect(runner.signals[0]?.aborted).toBe(true);
  });

  it('says so when the host has no runner', async () => {
    const result = await executeTool(agentTool, { description: 'Task', prompt: 'p' }, testContext());
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^Sub-agents are not available in this host/);
  });

  it.each([
    [{ description: 'Task' }, 'prompt'],
    [{ description: '', prompt: 'p' }, 'description'],
    [{ description: 'Task', prompt: 'p', max_turns: 0 }, 'max_turns'],
    [{ description: 'Task', prompt: 'p', max_turns: 101 }, 'max_turns'],
    [{ description: 'Task', prompt: 'p', max_turns: 2.5 }, 'max_turns'],
  ])('rejects invalid input %o', async (input, field) => {
    const runner = new FakeAgentRunner();
    const result = await executeTool(agentTool, input, testContext({ agents: runner }));
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain(`- ${field}:`);
    expect(runner.requests).toEqual([]);
  });
});

describe('agent in the background, with agent_status', () => {
  async function startOne(runner: FakeAgentRunner): Promise<string> {
    const result = await executeTool(
      agentTool,
      { description: 'Scan repo', prompt: 'p', run_in_background: true },
      testContext({ agents: runner }),
    );
    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toMatch(/^Started sub-agent agent-1 \("Scan repo"\) in the background/);
    expect(result.metadata).toEqual({ id: 'agent-1', state: 'running' });
    return 'agent-1';
  }

  it('returns the id at once, reports running, then the answer', async () => {
    const runner = new FakeAgentRunner();
    const id = await startOne(runner);
    const context = testContext({ agents: runner });
    const running = await executeTool(agentStatusTool, { id }, context);
    expect(resultText(running)).toMatch(/is still running \(2 turns so far\)/);
    expect(running.metadata).toEqual({ id, state: 'running', turns: 2 });
    runner.background.get(id)?.settle(completed('All clean.'));
    const done = await executeTool(agentStatusTool, { id, action: 'status' }, context);
    expect(resultText(done)).toBe('All clean.');
    expect(done.metadata).toEqual({ id, state: 'done', status: 'completed', turns: 3, costUsd: 0.02 });
  });

  it('waits for a run with the bounded timeout', async () => {
    const runner = new FakeAgentRunner();
    const id = await startOne(runner);
    const waiting = executeTool(
      agentStatusTool,
      { id, action: 'wait', timeout_seconds: 5 },
      testContext({
        agents: runner,
      }),
    );
    runner.background.get(id)?.settle({ status: 'failed', output: 'partial', turns: 1, error: 'boom' });
    const result = await waiting;
    expect(runner.waits).toEqual([5000]);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe('Sub-agent "Scan repo" failed: boom. Partial output:\npartial');
  });

  it('stops waiting when the call is aborted', async () => {
    const runner = new FakeAgentRunner();
    const id = await startOne(runner);
    const controller = new AbortController();
    const waiting = executeTool(
      agentStatusTool,
      { id, action: 'wait' },
      testContext({
        agents: runner,
        signal: controller.signal,
      }),
    );
    controller.abort();
    const result = await waiting;
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/cancelled/);
    expect(runner.waits).toEqual([60_000]);
  });

  it('cancels a running sub-agent and then says it is finished', async () => {
    const runner = new FakeAgentRunner();
    const id = await startOne(runner);
    const context = testContext({ agents: runner });
    const cancelled = await executeTool(agentStatusTool, { id, action: 'cancel' }, context);
    expect(resultText(cancelled)).toBe('Cancelled sub-agent agent-1 ("Scan repo").');
    const again = await executeTool(agentStatusTool, { id, action: 'cancel' }, context);
    expect(resultText(again)).toBe('Sub-agent agent-1 had already finished (cancelled); nothing to cancel.');
  });

  it('answers an unknown id, a missing runner and bad input with error results', async () => {
    const runner = new FakeAgentRunner();
    const unknown = await executeTool(agentStatusTool, { id: 'nope', action: 'wait' }, testContext({ agents: runner }));
    expect(resultText(unknown)).toMatch(/^No sub-agent with id "nope"/);
    const cancelUnknown = await executeTool(
      agentStatusTool,
      { id: 'nope', action: 'cancel' },
      testContext({
        agents: runner,
      }),
    );
    expect(cancelUnknown.isError).toBe(true);
    const noRunner = await executeTool(agentStatusTool, { id: 'x' }, testContext());
    expect(resultText(noRunner)).toMatch(/^Sub-agents are not available in this host/);
    const badAction = await executeTool(agentStatusTool, { id: 'x', action: 'kill' }, testContext({ agents: runner }));
    expect(resultText(badAction)).toContain('- action:');
    const badTimeout = await executeTool(
      agentStatusTool,
      { id: 'x', action: 'wait', timeout_seconds: 601 },
      testContext({
        agents: runner,
      }),
    );
    expect(resultText(badTimeout)).toContain('- timeout_seconds:');
    expect(runner.waits).toEqual([60_000]);
  });
});
