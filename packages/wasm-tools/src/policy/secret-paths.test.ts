import { link, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executeTool, type ToolContext } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxToolSource } from '../sandbox/sandbox-tool-source.js';
import { checkPath, createPathPolicy } from './path-policy.js';

const CANARY = 'sk-secret-canary-1234567890';
let root: string;
const source = createSandboxToolSource({ jsExec: false, webFetch: false });
const context = (): ToolContext => ({
  root,
  signal: new AbortController().signal,
  sessionId: 's',
  turnId: 't',
  toolCallId: 'c',
});

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'secret-paths-'));
  await mkdir(join(root, '.boxagnts'));
  await writeFile(join(root, '.boxagnts', 'secrets.json'), JSON.stringify({ anthropic: CANARY }));
  await writeFile(join(root, 'boxagnts.json'), '{}\n');
  await symlink(join(root, '.boxagnts', 'secrets.json'), join(root, 'innocent.json'));
  // A hard link made outside the tools (they cannot make links).
  await link(join(root, '.boxagnts', 'secrets.json'), join(root, 'hard-copy.json'));
});
afterAll(async () => {
  await source.close?.();
  await rm(root, { recursive: true, force: true });
});

describe('secret paths', () => {
  it('are refused for reading and writing, also through another name, case or a symlink', async () => {
    const policy = createPathPolicy({ root });
    for (const path of [
      '.boxagnts/secrets.json',
      './.boxagnts/../.boxagnts/secrets.json',
      '.BOXAGNTS/Secrets.json',
      'innocent.json',
    ]) {
      const read = await checkPath(policy, path, 'read');
      expect(read.ok, path).toBe(false);
    }
    expect((await checkPath(policy, 'boxagnts.json', 'read')).ok).toBe(true);
    expect((await checkPath(policy, 'boxagnts.json', 'write')).ok).toBe(false);
  });

  it('never reach the model through read, grep or bash', async () => {
    const tools = new Map((await source.load()).map((tool) => [tool.name, tool]));
    const run = async (name: string, input: Record<string, unknown>) =>
      JSON.stringify(await executeTool(tools.get(name) as Parameters<typeof executeTool>[0], input, context()));
    expect(await run('read', { file_path: '.boxagnts/secrets.json' })).not.toContain(CANARY);
    expect(await run('read', { file_path: 'innocent.json' })).not.toContain(CANARY);
    expect(await run('read', { file_path: 'hard-copy.json' })).not.toContain(CANARY);
    expect(await run('bash', { command: 'cat hard-copy.json' })).not.toContain(CANARY);
    expect(await run('grep', { pattern: 'canary', output_mode: 'content' })).not.toContain(CANARY);
    expect(await run('bash', { command: 'cat .boxagnts/secrets.json; cat innocent.json' })).not.toContain(CANARY);
  });
});
