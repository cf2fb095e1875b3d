import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { defineTool, errorResult, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collect, type Harness, startHarness } from '../test/harness.js';

const exec = promisify(execFile);
const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd })).stdout;

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 100, output: 10 };
const seen: string[] = [];
const readTool = defineTool({
  name: 'read_file',
  description: 'Reads a file.',
  inputSchema: z.object({ path: z.string() }),
  permission: 'read-only',
  execute: async ({ path }, context) => {
    try {
      const text = await readFile(join(context.root, path), 'utf8');
      seen.push(`${path}=${text}`);
      return textResult(text);
    } catch (error) {
      return errorResult(String(error));
    }
  },
});
const writeTool = defineTool({
  name: 'write_file',
  description: 'Writes a file.',
  inputSchema: z.object({ path: z.string(), text: z.string() }),
  permission: 'write',
  execute: async ({ path, text }, context) => {
    await writeFile(join(context.root, path), text);
    return textResult(`wrote ${path}`);
  },
});
const call = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_call' as const, name, input }],
  usage,
});

describe('managed worktree isolation', () => {
  it('starts from the uncommitted working state, removes the worktree, and hands back a diff that applies', async () => {
    harness = await startHarness({
      rules: [
        {
          match: { model: 'executor-model' },
          steps: [
            call('read_file', { path: 'config.txt' }),
            call('read_file', { path: 'notes.txt' }),
            call('write_file', { path: 'config.txt', text: 'port=8080\n' }),
            { text: 'changed the port', usage },
          ],
        },
      ],
      steps: [call('agent', { description: 'port', prompt: 'Set the port to 8080.' }), { text: 'done', usage }],
    });
    const root = harness.root;
    await git(root, 'init', '-q');
    await writeFile(join(root, 'config.txt'), 'port=8000\n');
    await git(root, 'add', 'config.txt');
    await git(root, '-c', 'user.name=t', '-c', 'user.email=t@localhost', 'commit', '-q', '-m', 'init');
    // Uncommitted and untracked work of the user, which the executor must see.
    await writeFile(join(root, 'config.txt'), 'port=8001\n');
    await writeFile(join(root, 'notes.txt'), 'draft notes\n');
    seen.length = 0;

    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Change the port' }],
      tools: [readTool, writeTool],
      toolContext: { root, sessionId: 'wt1' },
      config: { model: 'manager-model', managed: { executorModel: 'executor-model', isolation: 'worktree' } },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(seen).toEqual(['config.txt=port=8001\n', 'notes.txt=draft notes\n']);
    // The user's tree is untouched and the worktree is gone.
    expect(await readFile(join(root, 'config.txt'), 'utf8')).toBe('port=8001\n');
    expect((await git(root, 'worktree', 'list')).trim().split('\n')).toHaveLength(1);

    const end = events.find((event) => event.type === 'tool-end' && event.name === 'agent');
    const report = end?.type === 'tool-end' ? JSON.stringify(end.result.content) : '';
    expect(report).toContain('-port=8001');
    expect(report).toContain('+port=8080');
    expect(report).not.toContain('notes.txt');
    const patch = /apply --index ([^`\\]+\.patch)/.exec(report)?.[1] as string;
    await git(root, 'apply', patch);
    await rm(patch, { force: true });
    expect(await readFile(join(root, 'config.txt'), 'utf8')).toBe('port=8080\n');
  });
});
