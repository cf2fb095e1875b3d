import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentTool, defineTool, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUILTIN_AGENTS } from './agents.js';
import { collect, type Harness, startHarness } from './test/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 100, output: 20 };
type Body = { model: string; tools?: Array<{ name: string }>; system: unknown };

const tool = (name: string, permission: 'read-only' | 'write' | 'execute' | 'network') =>
  defineTool({
    name,
    description: name,
    inputSchema: z.object({}),
    permission,
    execute: async () => textResult(name),
  });
const allTools = [
  tool('grep', 'read-only'),
  tool('edit', 'write'),
  tool('bash', 'execute'),
  tool('web_fetch', 'network'),
];

describe('agent definitions', () => {
  it.each([
    ['build', ['bash', 'edit', 'grep', 'web_fetch']],
    ['plan', ['grep', 'web_fetch']],
    ['explore', ['grep']],
  ] as const)(
    'the %s agent gets the tools of its access level, and its prompt leads the system prompt',
    async (name, expected) => {
      harness = await startHarness({ steps: [{ text: 'ok', usage }] });
      await collect({
        provider: harness.provider,
        messages: [{ role: 'user', content: 'hi' }],
        tools: allTools,
        toolContext: { root: harness.root, sessionId: 'a1' },
        config: { model: 'claude-sonnet-4-6', agent: BUILTIN_AGENTS[name] },
      });
      const request = harness.mock.requests[0]?.body as Body;
      expect(request.tools?.map((entry) => entry.name).sort()).toEqual(expected);
      const prompt = BUILTIN_AGENTS[name].prompt;
      if (prompt) expect(JSON.stringify(request.system).indexOf(prompt.slice(0, 30))).toBeLessThan(40);
    },
  );

  it('an agent definition overrides model, temperature and max turns', async () => {
    harness = await startHarness({
      steps: [{ content: [{ type: 'tool_call', name: 'grep', input: {} }], usage }],
      repeatLast: true,
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'hi' }],
      tools: allTools,
      toolContext: { root: harness.root, sessionId: 'a2' },
      config: {
        model: 'claude-sonnet-4-6',
        maxTurns: 10,
        agent: {
          name: 'quick',
          description: 'q',
          model: 'claude-haiku-4-5',
          temperature: 0.2,
          maxTurns: 2,
          access: 'full',
        },
      },
    });
    expect(outcome.reason).toBe('max_turns');
    expect(outcome.turns).toBe(2);
    const body = harness.mock.requests[0]?.body as Body & { temperature: number };
    expect(body.model).toBe('claude-haiku-4-5');
    expect(body.temperature).toBe(0.2);
  });
});

describe('tree limits', () => {
  it('caps model calls across the whole tree', async () => {
    harness = await startHarness({
      rules: [
        {
          match: { model: 'child-model' },
          steps: [{ content: [{ type: 'tool_call', name: 'grep', input: {} }], usage }],
          repeatLast: true,
        },
        {
          match: { model: 'parent-model' },
          steps: [
            { content: [{ type: 'tool_call', name: 'agent', input: { description: 'd', prompt: 'p' } }], usage },
            { text: 'end', usage },
          ],
        },
      ],
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [agentTool, ...allTools],
      toolContext: { root: harness.root, sessionId: 't1' },
      config: { model: 'parent-model' },
      subAgents: { model: 'child-model', maxTreeTurns: 4, defaultMaxTurns: 50 },
    });
    // Parent 1 call, child 3 calls (tree total 4), then the parent may not call again.
    expect(harness.mock.requests).toHaveLength(4);
    expect(outcome.reason).toBe('max_turns');
    expect(JSON.stringify(outcome.messages.at(-1))).toContain('max_turns');
  });

  it('ends a run that takes longer than its timeout with a timeout error', async () => {
    harness = await startHarness({ steps: [{ content: [{ type: 'tool_call', name: 'slow', input: {} }], usage }] });
    const slow = defineTool({
      name: 'slow',
      description: 'slow',
      inputSchema: z.object({}),
      permission: 'read-only',
      execute: (_input, context) =>
        new Promise((resolve) => context.signal.addEventListener('abort', () => resolve(textResult('stopped')))),
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [slow],
      toolContext: { root: harness.root, sessionId: 't2' },
      config: { model: 'claude-sonnet-4-6', timeoutMs: 100 },
    });
    expect(outcome.reason).toBe('error');
    expect(outcome.reason === 'error' && outcome.error).toContain('timeout');
  });
});

describe('managed mode isolation', () => {
  it('runs each executor in its own git worktree, leaving the main checkout untouched', async () => {
    harness = await startHarness({
      rules: [
        {
          match: { model: 'executor-model' },
          steps: [
            { content: [{ type: 'tool_call', name: 'write_marker', input: {} }], usage },
            { text: 'wrote it', usage },
          ],
        },
        {
          match: { model: 'manager-model' },
          steps: [
            { content: [{ type: 'tool_call', name: 'agent', input: { description: 'w', prompt: 'write' } }], usage },
            { text: 'ok', usage },
          ],
        },
      ],
    });
    const repo = join(harness.root, 'repo');
    await mkdir(repo);
    await writeFile(join(repo, 'README.md'), 'hello\n');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
    git('init', '-q');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '.');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'init');
    const roots: string[] = [];
    const writeMarker = defineTool({
      name: 'write_marker',
      description: 'Writes a marker file in the root.',
      inputSchema: z.object({}),
      permission: 'write',
      execute: async (_input, context) => {
        roots.push(context.root);
        await writeFile(join(context.root, 'marker.txt'), 'executor');
        return textResult('written');
      },
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'go' }],
      tools: [writeMarker],
      toolContext: { root: repo, sessionId: 'w1' },
      config: { model: 'manager-model', managed: { executorModel: 'executor-model', isolation: 'worktree' } },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(roots).toHaveLength(1);
    expect(roots[0]).not.toBe(repo);
    await expect(readFile(join(repo, 'marker.txt'), 'utf8')).rejects.toThrow();
    // The worktree is removed at the end; the executor's change comes back as a diff.
    expect(git('worktree', 'list').toString()).not.toContain(roots[0] as string);
    const last = JSON.stringify(harness.mock.requests.at(-1)?.body);
    expect(last).toContain('git worktree');
    expect(last).toContain('+++ b/marker.txt');
  });
});
