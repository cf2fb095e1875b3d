import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executeTool, type ToolContext } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxToolSource } from './sandbox-tool-source.js';

let root: string;
const source = createSandboxToolSource({ webFetch: { allowedHosts: [] } });
const context = (): ToolContext => ({
  root,
  signal: new AbortController().signal,
  sessionId: 's',
  turnId: 't',
  toolCallId: 'c',
});

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sandbox-source-'));
  await writeFile(join(root, 'config.toml'), 'port = 8000\n');
});
afterAll(async () => {
  await source.close?.();
  await rm(root, { recursive: true, force: true });
});

describe('the sandbox tool source', () => {
  it('offers the built-in sandboxed tools with their permissions, and they work in the root', async () => {
    const tools = await source.load();
    expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.permission]))).toEqual({
      read: 'read-only',
      write: 'write',
      edit: 'write',
      glob: 'read-only',
      grep: 'read-only',
      bash: 'execute',
      js_exec: 'execute',
      web_fetch: 'network',
    });
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const read = await executeTool(
      byName.get('read') as (typeof tools)[number],
      { file_path: 'config.toml' },
      context(),
    );
    expect(JSON.stringify(read.content)).toContain('port = 8000');
    const edit = await executeTool(
      byName.get('edit') as (typeof tools)[number],
      { file_path: 'config.toml', old_string: 'port = 8000', new_string: 'port = 8080' },
      context(),
    );
    expect(edit.isError).not.toBe(true);
    expect(await readFile(join(root, 'config.toml'), 'utf8')).toBe('port = 8080\n');
    const bash = await executeTool(
      byName.get('bash') as (typeof tools)[number],
      { command: 'cat config.toml | wc -l' },
      context(),
    );
    expect(JSON.stringify(bash.content)).toContain('1');
    const outside = await executeTool(
      byName.get('read') as (typeof tools)[number],
      { file_path: '../../etc/passwd' },
      context(),
    );
    expect(outside.isError).toBe(true);
  });

  it('leaves out what is switched off', async () => {
    const small = createSandboxToolSource({ files: false, bash: false, webFetch: false });
    expect((await small.load()).map((tool) => tool.name)).toEqual(['js_exec']);
    await small.close?.();
  });
});
