import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonObject } from '@boxagnts/api';
import { defineTool, resultText, type ToolContext, textResult } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMcpToolSource } from '../mcp/mcp-tool-source.js';
import { filesystemBin } from '../mcp/test/mcp-test-servers.js';
import { createToolSet } from '../tool-set/create-tool-set.js';
import type { ToolSet } from '../tool-set/tool-set-types.js';
import { createPermissionEngine } from './permission-engine.js';

const readOnly = { name: 'mcp__fs__read_text_file', permission: 'read-only' } as const;

describe('a deny rule matches any candidate subject, whatever field comes first', () => {
  const engine = createPermissionEngine({ rules: { deny: ['mcp__fs__read_text_file(**/secret.txt)'] } });
  const root = '/work/project';
  const dodges: JsonObject[] = [
    { path: '/srv/outside/secret.txt', command: 'ls' },
    { path: '/srv/outside/secret.txt', file_path: 'notes.md' },
    { name: 'x', query: 'y', path: 'a/secret.txt', url: 'https://example.com/' },
    { pattern: '*', notebook_path: 'deep/down/SECRET.TXT' },
  ];
  for (const input of dodges) {
    it(`denies ${JSON.stringify(input)}`, () => {
      expect(engine.evaluate(readOnly, input, { root }).behavior).toBe('deny');
    });
  }
  it('still lets a call through that names no secret in any field', () => {
    expect(engine.evaluate(readOnly, { path: 'a.txt', command: 'ls' }, { root }).behavior).toBe('allow');
  });
  it('an allow rule must cover every path subject, not just the first field', () => {
    const allowing = createPermissionEngine({ rules: { allow: ['mcp__x__put(src/**)'] } });
    const tool = { name: 'mcp__x__put', permission: 'write' } as const;
    expect(allowing.evaluate(tool, { file_path: 'src/a.ts' }, { root }).behavior).toBe('allow');
    expect(allowing.evaluate(tool, { file_path: 'src/a.ts', path: '/etc/passwd' }, { root }).behavior).toBe('ask');
    expect(allowing.evaluate(tool, { command: 'ls', path: '/etc/passwd' }, { root }).behavior).toBe('ask');
  });
  it('a domain deny reads every subject, not only the url field', () => {
    const fetchDeny = createPermissionEngine({ rules: { deny: ['fetchy(domain:evil.example)'] } });
    const tool = { name: 'fetchy', permission: 'network' } as const;
    expect(fetchDeny.evaluate(tool, { query: 'x', url: 'https://evil.example/a' }, { root }).behavior).toBe('deny');
    expect(fetchDeny.evaluate(tool, { command: 'x', name: 'https://evil.example/' }, { root }).behavior).toBe('deny');
  });
});

describe('accept-edits needs every path inside the root', () => {
  const root = '/work/project';
  const engine = createPermissionEngine({ mode: 'accept-edits' });
  const write = { name: 'put_file', permission: 'write' } as const;
  it('a second path field outside the root asks instead of writing', () => {
    expect(engine.evaluate(write, { file_path: 'src/a.ts' }, { root }).behavior).toBe('allow');
    expect(engine.evaluate(write, { path: '/home/user/.bashrc', file_path: 'src/a.ts' }, { root }).behavior).toBe(
      'ask',
    );
    expect(engine.evaluate(write, { file_path: 'src/a.ts', notebook_path: '../x.ipynb' }, { root }).behavior).toBe(
      'ask',
    );
  });
});

describe('undeclared input keys never reach rules, hooks or the tool', () => {
  const context = (root: string): ToolContext => ({
    root,
    signal: new AbortController().signal,
    sessionId: 's',
    turnId: 't',
    toolCallId: 'c',
  });

  it('a loose-schema write tool with a declared JSON Schema gets only its declared keys', async () => {
    const received: unknown[] = [];
    const hookSaw: unknown[] = [];
    const put = defineTool({
      name: 'put',
      description: 'Writes a file (loose schema, as MCP and component tools have).',
      inputSchema: z.looseObject({}),
      jsonSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } },
      permission: 'write',
      execute: async (input) => {
        received.push(input);
        return textResult('written');
      },
    });
    const toolSet = await createToolSet({
      sources: [{ name: 'loose', kind: 'custom', load: async () => [put] }],
      permissions: { mode: 'accept-edits' },
      hooks: { beforeTool: [{ run: ({ input }) => void hookSaw.push(input) }] },
    });
    const attack = await toolSet.execute(
      'put',
      { path: '/home/user/.bashrc', file_path: 'src/a.ts', content: 'x' },
      context('/work/project'),
    );
    expect(attack.isError).toBe(true);
    expect(received).toEqual([]);
    expect(hookSaw).toEqual([{ path: '/home/user/.bashrc', content: 'x' }]);

    const fine = await toolSet.execute(
      'put',
      { path: 'src/a.ts', content: 'x', mode: 'evil' },
      context('/work/project'),
    );
    expect(resultText(fine)).toBe('written');
    expect(received).toEqual([{ path: 'src/a.ts', content: 'x' }]);
    await toolSet.close();
  });

  it('a loose tool without a JSON Schema keeps its keys, and accept-edits checks all of them', async () => {
    let ran = 0;
    const put = defineTool({
      name: 'put',
      description: 'Writes a file.',
      inputSchema: z.looseObject({ file_path: z.string() }),
      permission: 'write',
      execute: async () => {
        ran++;
        return textResult('written');
      },
    });
    const toolSet = await createToolSet({
      sources: [{ name: 'loose', kind: 'custom', load: async () => [put] }],
      permissions: { mode: 'accept-edits' },
    });
    const attack = await toolSet.execute('put', { path: '/home/user/.bashrc', file_path: 'src/a.ts' }, context('/w'));
    expect(attack.isError).toBe(true);
    expect(ran).toBe(0);
    await toolSet.close();
  });
});

describe('the real filesystem MCP server behind a deny rule', () => {
  let base: string;
  let toolSet: ToolSet;
  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'tm-subjects-')));
    await mkdir(join(base, 'allowed'));
    await writeFile(join(base, 'allowed', 'secret.txt'), 'the secret\n');
    await writeFile(join(base, 'allowed', 'open.txt'), 'open\n');
    toolSet = await createToolSet({
      sources: [
        createMcpToolSource({
          name: 'fs',
          transport: { type: 'stdio', command: process.execPath, args: [filesystemBin, join(base, 'allowed')] },
        }),
      ],
      permissions: { rules: { deny: ['mcp__fs__read_text_file(**/secret.txt)'] } },
    });
  });
  afterAll(async () => {
    await toolSet.close();
    await rm(base, { recursive: true, force: true });
  });

  const context = (): ToolContext => ({
    root: join(base, 'allowed'),
    signal: new AbortController().signal,
    sessionId: 's',
    turnId: 't',
    toolCallId: 'c',
  });

  it('an earlier `command` field no longer hides the secret path', async () => {
    const secret = join(base, 'allowed', 'secret.txt');
    for (const input of [{ path: secret, command: 'ls' }, { command: 'ls', path: secret }, { path: secret }]) {
      const result = await toolSet.execute('mcp__fs__read_text_file', input, context());
      expect(result.isError).toBe(true);
      expect(resultText(result)).not.toContain('the secret');
      expect(resultText(result)).toContain('**/secret.txt');
    }
    const open = await toolSet.execute(
      'mcp__fs__read_text_file',
      { path: join(base, 'allowed', 'open.txt'), command: 'ls' },
      context(),
    );
    expect(resultText(open)).toBe('open\n');
  });
});
