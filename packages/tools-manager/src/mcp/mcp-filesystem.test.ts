import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnyTool, executeTool, resultText } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpToolSource, type McpToolSource } from './mcp-tool-source.js';
import { filesystemBin, mcpTestContext } from './test/mcp-test-servers.js';

function byName(tools: readonly AnyTool[], name: string): AnyTool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name} in ${tools.map((each) => each.name).join(', ')}`);
  return tool;
}

describe('server-filesystem over stdio', () => {
  let base: string;
  let allowed: string;
  let outside: string;
  let source: McpToolSource;
  let tools: readonly AnyTool[];

  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-')));
    allowed = join(base, 'allowed');
    outside = join(base, 'outside');
    await mkdir(allowed);
    await mkdir(outside);
    await writeFile(join(allowed, 'hello.txt'), 'hello from disk\n');
    await writeFile(join(outside, 'secret.txt'), 'do not read me\n');
    // A tiny WAV header plus silence: read_media_file answers with audio content.
    await writeFile(join(allowed, 'beep.wav'), Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(60)]));
    source = createMcpToolSource({
      name: 'fs',
      transport: { type: 'stdio', command: process.execPath, args: [filesystemBin, allowed] },
    });
    tools = await source.load();
  });
  afterAll(async () => {
    await source.close();
    await rm(base, { recursive: true, force: true });
  });

  it('lists the file tools with permissions from their annotations', () => {
    expect(byName(tools, 'mcp__fs__read_text_file').permission).toBe('read-only');
    expect(byName(tools, 'mcp__fs__list_directory').permission).toBe('read-only');
    expect(byName(tools, 'mcp__fs__write_file').permission).toBe('execute');
    expect(byName(tools, 'mcp__fs__create_directory').permission).toBe('write');
    // The filesystem server offers no resources, so no resource tools.
    expect(tools.map((tool) => tool.name)).not.toContain('mcp__fs__list_resources');
  });

  it('reads, writes and lists inside the allowed directory', async () => {
    const read = await executeTool(
      byName(tools, 'mcp__fs__read_text_file'),
      { path: join(allowed, 'hello.txt') },
      mcpTestContext(),
    );
    expect(read.isError).toBeUndefined();
    expect(resultText(read)).toBe('hello from disk\n');
    expect(read.metadata?.structuredContent).toEqual({ content: 'hello from disk\n' });

    const target = join(allowed, 'new.txt');
    const write = await executeTool(
      byName(tools, 'mcp__fs__write_file'),
      { path: target, content: 'written by mcp' },
      mcpTestContext(),
    );
    expect(write.isError).toBeUndefined();
    expect(await readFile(target, 'utf8')).toBe('written by mcp');

    const listing = await executeTool(byName(tools, 'mcp__fs__list_directory'), { path: allowed }, mcpTestContext());
    expect(resultText(listing)).toContain('[FILE] hello.txt');
    expect(resultText(listing)).toContain('[FILE] new.txt');
  });

  it('answers a path outside the allowed directory with an error result', async () => {
    const result = await executeTool(
      byName(tools, 'mcp__fs__read_text_file'),
      { path: join(outside, 'secret.txt') },
      mcpTestContext(),
    );
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/access denied|outside allowed/i);
    expect(resultText(result)).not.toContain('do not read me');
    const escaped = await executeTool(
      byName(tools, 'mcp__fs__write_file'),
      { path: join(allowed, '..', 'outside', 'planted.txt'), content: 'x' },
      mcpTestContext(),
    );
    expect(escaped.isError).toBe(true);
    await expect(readFile(join(outside, 'planted.txt'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('turns audio content into a text note', async () => {
    const result = await executeTool(
      byName(tools, 'mcp__fs__read_media_file'),
      { path: join(allowed, 'beep.wav') },
      mcpTestContext(),
    );
    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toMatch(/^\[audio: audio\/wav, 64 bytes; audio cannot be shown here\]$/);
  });
});
