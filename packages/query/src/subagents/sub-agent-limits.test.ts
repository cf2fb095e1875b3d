import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentStatusTool, agentTool, defineTool, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collect, type Harness, startHarness } from '../test/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 100, output: 20 };
const background = (task: string) => ({
  type: 'tool_call' as const,
  name: 'agent',
  input: { description: task, prompt: task, run_in_background: true },
});
const wait = (id: string) => ({
  type: 'tool_call' as const,
  name: 'agent_status',
  input: { id, action: 'wait', timeout_seconds: 30 },
});

describe('sub-agent limits', () => {
  it('runs at most maxConcurrent sub-agents at once across the tree', async () => {
    let running = 0;
    let peak = 0;
    const work = defineTool({
      name: 'work',
      description: 'Works a while.',
      inputSchema: z.object({}),
      permission: 'execute',
      execute: async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 40));
        running--;
        return textResult('worked');
      },
    });
    // A child calls `work` first, and answers once its request carries the tool's result.
    harness = await startHarness({
      rules: [
        {
          match: { model: 'child-model', contains: 'worked' },
          steps: [{ text: 'child done', usage }],
          repeatLast: true,
        },
        {
          match: { model: 'child-model' },
          steps: [{ content: [{ type: 'tool_call', name: 'work', input: {} }], usage }],
          repeatLast: true,
        },
        {
          match: { model: 'parent-model' },
          steps: [
            {
              content: [
                background('task one'),
                background('task two'),
                background('task three'),
                background('task four'),
              ],
              usage,
            },
            { content: [wait('agent-1-1'), wait('agent-1-2'), wait('agent-1-3'), wait('agent-1-4')], usage },
            { text: 'all collected', usage },
          ],
        },
      ],
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'four tasks' }],
      tools: [agentTool, agentStatusTool, work],
      toolContext: { root: harness.root, sessionId: 'l1' },
      config: { model: 'parent-model' },
      subAgents: { model: 'child-model', maxConcurrent: 2 },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(Object.keys(outcome.usage.bySubAgent)).toHaveLength(4);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(2);
  });

  it('stops a child at its own budget and its own timeout', async () => {
    const hang = defineTool({
      name: 'hang',
      description: 'Hangs until cancelled.',
      inputSchema: z.object({}),
      permission: 'execute',
      execute: (_input, context) =>
        new Promise((resolve) => context.signal.addEventListener('abort', () => resolve(textResult('stopped')))),
    });
    harness = await startHarness({
      rules: [
        // 500k input tokens of claude-sonnet-4-6 cost $1.50: over a $1 child budget after one call.
        {
          match: { model: 'claude-sonnet-4-6', contains: 'expensive task' },
          steps: [{ content: [{ type: 'tool_call', name: 'noop', input: {} }], usage: { input: 500_000, output: 10 } }],
          repeatLast: true,
        },
        {
          match: { model: 'claude-sonnet-4-6', contains: 'slow task' },
          steps: [{ content: [{ type: 'tool_call', name: 'hang', input: {} }], usage }],
          repeatLast: true,
        },
        {
          match: { model: 'parent-model' },
          steps: [
            {
              content: [
                { type: 'tool_call', name: 'agent', input: { description: 'expensive', prompt: 'expensive task' } },
              ],
              usage,
            },
            {
              content: [{ type: 'tool_call', name: 'agent', input: { description: 'slow', prompt: 'slow task' } }],
              usage,
            },
            { text: 'parent done', usage },
          ],
        },
      ],
    });
    const noop = defineTool({
      name: 'noop',
      description: 'Nothing.',
      inputSchema: z.object({}),
      permission: 'read-only',
      execute: async () => textResult('ok'),
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'go' }],
      tools: [agentTool, noop, hang],
      toolContext: { root: harness.root, sessionId: 'l2' },
      config: { model: 'parent-model' },
      subAgents: { model: 'claude-sonnet-4-6', budgetUsd: 1, timeoutMs: 200 },
    });
    expect(outcome.reason).toBe('end_turn');
    const results = JSON.stringify(outcome.messages);
    expect(results).toContain('the cost budget was used up');
    expect(results).toContain('Sub-agent \\"slow\\" was cancelled');
    expect(
      harness.mock.requests.filter(
        (request) =>
          JSON.stringify(request.body).includes('expensive task') &&
          (request.body as { model: string }).model === 'claude-sonnet-4-6',
      ),
    ).toHaveLength(1);
  });

  it('isolates managed executors in a copy of the folder when the root is not a git repository', async () => {
    harness = await startHarness({
      rules: [
        {
          match: { model: 'executor-model' },
          steps: [
            { content: [{ type: 'tool_call', name: 'touch', input: {} }], usage },
            { text: 'touched', usage },
          ],
        },
        {
          match: { model: 'manager-model' },
          steps: [
            { content: [{ type: 'tool_call', name: 'agent', input: { description: 't', prompt: 'touch it' } }], usage },
            { text: 'ok', usage },
          ],
        },
      ],
    });
    const project = join(harness.root, 'plain-folder');
    await mkdir(project);
    await writeFile(join(project, 'data.txt'), 'original');
    const roots: string[] = [];
    const touch = defineTool({
      name: 'touch',
      description: 'Changes data.txt in the root.',
      inputSchema: z.object({}),
      permission: 'write',
      execute: async (_input, context) => {
        roots.push(context.root);
        await writeFile(join(context.root, 'data.txt'), 'changed by the executor');
        return textResult('done');
      },
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'go' }],
      tools: [touch],
      toolContext: { root: project, sessionId: 'l3' },
      config: { model: 'manager-model', managed: { executorModel: 'executor-model', isolation: 'worktree' } },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(roots[0]).not.toBe(project);
    expect(await readFile(join(project, 'data.txt'), 'utf8')).toBe('original');
    expect(await readFile(join(roots[0] as string, 'data.txt'), 'utf8')).toBe('changed by the executor');
    expect(JSON.stringify(harness.mock.requests.at(-1)?.body)).toContain('a copy of the folder');
  });
});
