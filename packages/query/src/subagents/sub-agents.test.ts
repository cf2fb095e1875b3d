import { agentStatusTool, agentTool, defineTool, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { QueryEvent } from '../events.js';
import { runQuery } from '../loop.js';
import { collect, type Harness, startHarness } from '../test/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 100, output: 20 };
type Body = { model: string; messages: Array<{ role: string; content: unknown }>; tools?: Array<{ name: string }> };

const note = defineTool({
  name: 'note',
  description: 'Take a note.',
  inputSchema: z.object({ text: z.string() }),
  permission: 'read-only',
  execute: async ({ text }) => textResult(`noted ${text}`),
});

describe('sub-agents', () => {
  it('runs a foreground sub-agent with its own context and returns its answer; events are tagged', async () => {
    harness = await startHarness({
      rules: [
        {
          match: { model: 'child-model' },
          steps: [
            { content: [{ type: 'tool_call', name: 'note', input: { text: 'from child' } }], usage },
            { text: 'CHILD ANSWER', usage },
          ],
        },
        {
          match: { model: 'parent-model' },
          steps: [
            {
              content: [
                {
                  type: 'tool_call',
                  id: 'toolu_parent_1',
                  name: 'agent',
                  input: { description: 'Investigate', prompt: 'Find the thing.' },
                },
              ],
              usage,
            },
            { text: 'Parent done.', usage },
          ],
        },
      ],
    });
    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Delegate please.' }],
      tools: [agentTool, agentStatusTool, note],
      toolContext: { root: harness.root, sessionId: 'sa1' },
      config: { model: 'parent-model' },
      subAgents: { model: 'child-model' },
    });
    expect(outcome.reason).toBe('end_turn');
    const childRequests = harness.mock.requests.filter((request) => (request.body as Body).model === 'child-model');
    expect(childRequests).toHaveLength(2);
    const childFirst = childRequests[0]?.body as Body;
    // Its own context: only the prompt, none of the parent's conversation.
    expect(JSON.stringify(childFirst.messages)).not.toContain('Delegate please.');
    expect(JSON.stringify(childFirst.messages)).toContain('Find the thing.');
    // No recursion by default: the child has every tool but agent.
    expect(childFirst.tools?.map((tool) => tool.name).sort()).toEqual(['note']);
    const parentSecond = harness.mock.requests.at(-1)?.body as Body;
    expect(JSON.stringify(parentSecond.messages.at(-1))).toContain('CHILD ANSWER');
    const tagged = events.filter((event) => event.type === 'sub-agent');
    expect(tagged.length).toBeGreaterThan(0);
    expect(
      tagged.every(
        (event) => event.type === 'sub-agent' && event.parentToolCallId === 'toolu_parent_1' && event.depth === 1,
      ),
    ).toBe(true);
    expect(tagged.some((event) => event.type === 'sub-agent' && event.event.type === 'tool-end')).toBe(true);
    expect(Object.keys(outcome.usage.bySubAgent)).toHaveLength(1);
    expect(outcome.usage.total.calls).toBe(4);
    expect(outcome.usage.byModel['child-model']?.calls).toBe(2);
  });

  it('runs background sub-agents concurrently and collects them with agent_status', async () => {
    harness = await startHarness({
      chunking: { delayMs: 30 },
      rules: [
        { match: { model: 'child-model', contains: 'task A' }, steps: [{ text: 'result A', usage }] },
        { match: { model: 'child-model', contains: 'task B' }, steps: [{ text: 'result B', usage }] },
        {
          match: { model: 'parent-model' },
          steps: [
            {
              content: [
                {
                  type: 'tool_call',
                  name: 'agent',
                  input: { description: 'A', prompt: 'task A', run_in_background: true },
                },
                {
                  type: 'tool_call',
                  name: 'agent',
                  input: { description: 'B', prompt: 'task B', run_in_background: true },
                },
              ],
              usage,
            },
            {
              content: [
                {
                  type: 'tool_call',
                  name: 'agent_status',
                  input: { id: 'agent-1-1', action: 'wait', timeout_seconds: 30 },
                },
                {
                  type: 'tool_call',
                  name: 'agent_status',
                  input: { id: 'agent-1-2', action: 'wait', timeout_seconds: 30 },
                },
              ],
              usage,
            },
            { text: 'Both collected.', usage },
          ],
        },
      ],
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'two tasks' }],
      tools: [agentTool, agentStatusTool, note],
      toolContext: { root: harness.root, sessionId: 'sa2' },
      config: { model: 'parent-model' },
      subAgents: { model: 'child-model' },
    });
    expect(outcome.reason).toBe('end_turn');
    const started = JSON.stringify(outcome.messages[2]);
    expect(started).toContain('agent-1-1');
    expect(started).toContain('agent-1-2');
    const collected = JSON.stringify(outcome.messages[4]);
    expect(collected).toContain('result A');
    expect(collected).toContain('result B');
    expect(Object.keys(outcome.usage.bySubAgent).sort()).toEqual(['agent-1-1', 'agent-1-2']);
  });

  it('cancelling the parent cancels a child stuck in a tool', async () => {
    let childToolAborted = false;
    const hang = defineTool({
      name: 'hang',
      description: 'Hangs until cancelled.',
      inputSchema: z.object({}),
      permission: 'execute',
      execute: (_input, context) =>
        new Promise((resolve) => {
          context.signal.addEventListener('abort', () => {
            childToolAborted = true;
            resolve(textResult('aborted'));
          });
        }),
    });
    harness = await startHarness({
      rules: [
        {
          match: { model: 'child-model' },
          steps: [{ content: [{ type: 'tool_call', name: 'hang', input: {} }], usage }],
        },
        {
          match: { model: 'parent-model' },
          steps: [
            {
              content: [{ type: 'tool_call', name: 'agent', input: { description: 'stuck', prompt: 'hang forever' } }],
              usage,
            },
          ],
        },
      ],
    });
    const controller = new AbortController();
    const events: QueryEvent[] = [];
    const run = runQuery({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'go' }],
      tools: [agentTool, hang],
      toolContext: { root: harness.root, sessionId: 'sa3' },
      config: { model: 'parent-model' },
      subAgents: { model: 'child-model' },
      signal: controller.signal,
    });
    let reason = '';
    for (;;) {
      const next = await run.next();
      if (next.done) {
        reason = next.value.reason;
        break;
      }
      events.push(next.value);
      if (next.value.type === 'sub-agent' && next.value.event.type === 'tool-start')
        setTimeout(() => controller.abort(), 10);
    }
    expect(reason).toBe('cancelled');
    expect(childToolAborted).toBe(true);
  });

  it('enforces the depth limit: past it, a sub-agent does not get the agent tool even when asked', async () => {
    harness = await startHarness({
      rules: [
        { match: { model: 'child-model' }, steps: [{ text: 'child answer', usage }] },
        {
          match: { model: 'parent-model' },
          steps: [
            {
              content: [
                {
                  type: 'tool_call',
                  name: 'agent',
                  input: { description: 'nest', prompt: 'try to nest', tools: ['agent', 'note'] },
                },
              ],
              usage,
            },
            { text: 'done', usage },
          ],
        },
      ],
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'go' }],
      tools: [agentTool, agentStatusTool, note],
      toolContext: { root: harness.root, sessionId: 'sa4' },
      config: { model: 'parent-model' },
      subAgents: { model: 'child-model', maxDepth: 1 },
    });
    expect(outcome.reason).toBe('end_turn');
    const child = harness.mock.requests.find((request) => (request.body as Body).model === 'child-model')?.body as Body;
    expect(child.tools?.map((tool) => tool.name)).toEqual(['note']);
  });

  it('passes the agent tool to a child that names it, within the depth limit', async () => {
    harness = await startHarness({
      rules: [
        { match: { model: 'child-model' }, steps: [{ text: 'child answer', usage }] },
        {
          match: { model: 'parent-model' },
          steps: [
            {
              content: [
                {
                  type: 'tool_call',
                  name: 'agent',
                  input: { description: 'nest', prompt: 'may nest', tools: ['agent', 'note'] },
                },
              ],
              usage,
            },
            { text: 'done', usage },
          ],
        },
      ],
    });
    await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'go' }],
      tools: [agentTool, agentStatusTool, note],
      toolContext: { root: harness.root, sessionId: 'sa5' },
      config: { model: 'parent-model' },
      subAgents: { model: 'child-model', maxDepth: 2 },
    });
    const child = harness.mock.requests.find((request) => (request.body as Body).model === 'child-model')?.body as Body;
    expect(child.tools?.map((tool) => tool.name).sort()).toEqual(['agent', 'agent_status', 'note']);
  });
});

describe('managed mode', () => {
  it('the manager only delegates; two executors run on the executor model with the real tools', async () => {
    harness = await startHarness({
      rules: [
        {
          match: { model: 'executor-model', contains: 'part one' },
          steps: [
            { content: [{ type: 'tool_call', name: 'note', input: { text: '1' } }], usage },
            { text: 'executor one finished', usage },
          ],
        },
        {
          match: { model: 'executor-model', contains: 'part two' },
          steps: [
            { content: [{ type: 'tool_call', name: 'note', input: { text: '2' } }], usage },
            { text: 'executor two finished', usage },
          ],
        },
        {
          match: { model: 'manager-model' },
          steps: [
            {
              content: [
                { type: 'text', text: 'Plan: split in two.' },
                { type: 'tool_call', name: 'agent', input: { description: 'one', prompt: 'Do part one.' } },
                { type: 'tool_call', name: 'agent', input: { description: 'two', prompt: 'Do part two.' } },
              ],
              usage,
            },
            { text: 'Both parts are done.', usage },
          ],
        },
      ],
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Big task' }],
      tools: [note],
      toolContext: { root: harness.root, sessionId: 'm1' },
      config: {
        model: 'manager-model',
        budgetUsd: 10,
        // The mock models have no price: the budget runs them as $0 by explicit opt-in.
        allowUnpricedBudget: true,
        managed: { executorModel: 'executor-model', maxExecutorTurns: 5, maxConcurrentExecutors: 2 },
      },
    });
    expect(outcome.reason).toBe('end_turn');
    const manager = harness.mock.requests.find((request) => (request.body as Body).model === 'manager-model')
      ?.body as Body & { system: unknown };
    expect(manager.tools?.map((tool) => tool.name).sort()).toEqual(['agent', 'agent_status']);
    expect(JSON.stringify(manager.system)).toContain('Managed mode');
    expect(JSON.stringify(manager.system)).toContain('executor-model');
    const executors = harness.mock.requests.filter((request) => (request.body as Body).model === 'executor-model');
    expect(executors).toHaveLength(4);
    expect((executors[0]?.body as Body | undefined)?.tools?.map((tool) => tool.name)).toEqual(['note']);
    const final = JSON.stringify(harness.mock.requests.at(-1)?.body);
    expect(final).toContain('executor one finished');
    expect(final).toContain('executor two finished');
    expect(Object.keys(outcome.usage.bySubAgent)).toHaveLength(2);
  });
});
