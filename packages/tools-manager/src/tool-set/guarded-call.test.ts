import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executeTool, resultText } from '@boxagnts/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionRequest } from '../types.js';
import { createToolSet } from './create-tool-set.js';
import { type CallLog, standardTools, testContext, testSource } from './test/fixtures.js';
import type { ToolSetEvent } from './tool-set-events.js';

let root: string;
let log: CallLog;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'guarded-'));
  log = [];
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const rules = {
  allow: ['bash(npm test:*)', 'bash(git status)', 'write(src/**)'],
  ask: ['bash(git push:*)', 'bash(npm test -- -u:*)'],
  deny: ['bash(rm:*)', 'bash(npm test -- -u --all)'],
};

describe('permissions through execute', () => {
  it('deny wins over ask, ask over allow, allow over the default', async () => {
    const asked: string[] = [];
    const toolSet = await createToolSet({
      sources: [testSource('sandbox', standardTools(log))],
      permissions: { rules },
      ask: async (request) => {
        asked.push(String(request.input.command));
        return { behavior: 'allow' };
      },
    });
    const context = testContext(root);
    const denied = await toolSet.execute('bash', { command: 'npm test -- -u --all' }, context);
    expect(denied.isError).toBe(true);
    expect(denied.metadata?.permission).toMatchObject({ behavior: 'deny', rule: 'bash(npm test -- -u --all)' });
    await toolSet.execute('bash', { command: 'npm test -- -u' }, context);
    await toolSet.execute('bash', { command: 'npm test' }, context);
    expect(asked).toEqual(['npm test -- -u']);
    expect(log.map((call) => call.input.command)).toEqual(['npm test -- -u', 'npm test']);
  });

  it('denies an ask without a user, with a reason the model can read', async () => {
    const events: ToolSetEvent[] = [];
    const toolSet = await createToolSet({
      sources: [testSource('sandbox', standardTools(log))],
      permissions: { rules },
      onEvent: (event) => events.push(event),
    });
    const result = await toolSet.execute('bash', { command: 'git push origin main' }, testContext(root));
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(
      /^Tool "bash" was not run: it needs the user's approval and no user is available in this run; Needs approval: rule `bash\(git push:\*\)` asks for it\./,
    );
    expect(result.metadata?.permission).toMatchObject({ behavior: 'deny', rule: 'bash(git push:*)' });
    expect(log).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'permission-decision', decidedBy: 'no-user', tool: 'bash' });
  });

  it('asks the user with the tool, input and reason, and honours a denial', async () => {
    const requests: PermissionRequest[] = [];
    const toolSet = await createToolSet({
      sources: [testSource('sandbox', standardTools(log))],
      ask: async (request) => {
        requests.push(request);
        return { behavior: 'deny', reason: 'not on Fridays' };
      },
    });
    const result = await toolSet.execute('write', { path: 'notes.md', content: 'x' }, testContext(root));
    expect(resultText(result)).toBe(
      'Tool "write" was not run: the user denied this call. The user said: not on Fridays. Do not retry the same call; ask the user or take another way.',
    );
    expect(result.metadata?.permission).toEqual({ behavior: 'deny', reason: 'Denied by the user: not on Fridays' });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      tool: { name: 'write', permission: 'write' },
      input: { path: 'notes.md', content: 'x' },
      reason: expect.stringMatching(/needs write permission/),
    });
    expect(log).toEqual([]);
  });

  it('remembers an allowed answer as an engine rule for the exact subject', async () => {
    let asks = 0;
    const toolSet = await createToolSet({
      sources: [testSource('sandbox', standardTools(log))],
      ask: async () => {
        asks += 1;
        return { behavior: 'allow', remember: true };
      },
    });
    const context = testContext(root);
    await toolSet.execute('bash', { command: 'make build' }, context);
    await toolSet.execute('bash', { command: 'make build' }, context);
    expect(asks).toBe(1);
    const decision = toolSet.permissions.evaluate(
      { name: 'bash', permission: 'execute' },
      { command: 'make build' },
      context,
    );
    expect(decision).toMatchObject({ behavior: 'allow', rule: 'bash(make build)' });
    await toolSet.execute('bash', { command: 'make clean' }, context);
    expect(asks).toBe(2);
    expect(log.map((call) => call.input.command)).toEqual(['make build', 'make build', 'make clean']);
  });

  it('remembers answers for subjects no rule can express by the exact call', async () => {
    let asks = 0;
    const toolSet = await createToolSet({
      sources: [testSource('sandbox', standardTools(log))],
      ask: async () => {
        asks += 1;
        return { behavior: 'deny', remember: true };
      },
    });
    const context = testContext(root);
    const command = 'echo "a*b" | tee out.txt';
    await toolSet.execute('bash', { command }, context);
    const again = await toolSet.execute('bash', { command }, context);
    expect(asks).toBe(1);
    expect(again.metadata?.permission).toMatchObject({ behavior: 'deny', reason: expect.stringMatching(/earlier/) });
    await toolSet.execute('bash', { command: 'echo "a*c" | tee out.txt' }, context);
    expect(asks).toBe(2);
    expect(log).toEqual([]);
  });

  it('refuses calls the same way when the loop runs the guarded tool with executeTool', async () => {
    const toolSet = await createToolSet({
      sources: [testSource('sandbox', standardTools(log))],
      permissions: { rules: { deny: ['read(.env)'] } },
    });
    const read = toolSet.tools().find((tool) => tool.name === 'read')!;
    const refused = await executeTool(read, { path: '.env' }, testContext(root));
    expect(refused.isError).toBe(true);
    expect(refused.metadata?.permission).toMatchObject({ behavior: 'deny', rule: 'read(.env)' });
    const allowed = await executeTool(read, { path: 'README.md' }, testContext(root));
    expect(resultText(allowed)).toBe('read ran with {"path":"README.md"}');
  });

  it('answers invalid input like executeTool, before asking anyone', async () => {
    let asks = 0;
    const toolSet = await createToolSet({
      sources: [testSource('sandbox', standardTools(log))],
      ask: async () => {
        asks += 1;
        return { behavior: 'allow' };
      },
    });
    const result = await toolSet.execute('bash', { cmd: 'ls' }, testContext(root));
    expect(resultText(result)).toMatch(/^Invalid input for tool "bash":\n- command:/);
    expect(asks).toBe(0);
  });

  it('denies when the ask handler throws, saying so', async () => {
    const toolSet = await createToolSet({
      sources: [testSource('sandbox', standardTools(log))],
      ask: async () => {
        throw new Error('terminal closed');
      },
    });
    const result = await toolSet.execute('bash', { command: 'ls' }, testContext(root));
    expect(result.isError).toBe(true);
    expect(result.metadata?.permission).toEqual({
      behavior: 'deny',
      reason: 'Denied by the user: asking the user failed: terminal closed',
    });
    expect(log).toEqual([]);
  });
});
