import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnyTool, executeTool, resultText } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMcpToolSource, type McpToolSource } from './mcp-tool-source.js';
import { fixtureServerPath, mcpTestContext } from './test/mcp-test-servers.js';

function byName(tools: readonly AnyTool[], name: string): AnyTool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name} in ${tools.map((each) => each.name).join(', ')}`);
  return tool;
}

// The fixture is a real MCP server (the SDK's McpServer in a child process) with the edge cases
// server-everything lacks: awkward names, every annotation combination, audio, a changing tool list.
describe('edge cases against the fixture server', () => {
  let folder: string;
  let cancelLog: string;
  let source: McpToolSource;
  let tools: readonly AnyTool[];
  const changes: Array<readonly AnyTool[]> = [];
  const stderr: string[] = [];

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'mcp-fixture-'));
    cancelLog = join(folder, 'cancel.log');
    source = createMcpToolSource(
      {
        name: 'fx',
        transport: {
          type: 'stdio',
          command: process.execPath,
          args: [fixtureServerPath],
          env: { CANCEL_LOG: cancelLog },
        },
      },
      { onToolsChanged: (next) => changes.push(next), onStderr: (text) => stderr.push(text) },
    );
    tools = await source.load();
  });
  afterAll(async () => {
    await source.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('sanitizes names, resolves collisions and keeps the resource tool names for the source', () => {
    const names = tools.map((tool) => tool.name);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('mcp__fx__weird_name_with_spaces');
    expect(names).toContain('mcp__fx__a_b');
    expect(names.filter((name) => /^mcp__fx__a_b_[0-9a-f]{8}$/.test(name))).toHaveLength(1);
    expect(names.filter((name) => name.startsWith(`mcp__fx__long_${'x'.repeat(10)}`))).toHaveLength(1);
    expect(names).toContain('mcp__fx__list_resources');
    expect(names.filter((name) => /^mcp__fx__list_resources_[0-9a-f]{8}$/.test(name))).toHaveLength(1);
    // The SDK's warning about the odd tool name went to the stderr callback, not to this process's stderr.
    expect(stderr.join('')).toContain('weird.name/with spaces');
  });

  it('calls the right server tool behind a renamed one', async () => {
    expect(resultText(await byName(tools, 'mcp__fx__a_b').execute({}, mcpTestContext()))).toBe('from a_b');
    const hashed = tools.find((tool) => /^mcp__fx__a_b_[0-9a-f]{8}$/.test(tool.name)) as AnyTool;
    expect(resultText(await hashed.execute({}, mcpTestContext()))).toBe('from a.b');
    const serverList = tools.find((tool) => /^mcp__fx__list_resources_/.test(tool.name)) as AnyTool;
    expect(resultText(await serverList.execute({}, mcpTestContext()))).toBe('server list_resources');
    expect(resultText(await byName(tools, 'mcp__fx__weird_name_with_spaces').execute({}, mcpTestContext()))).toBe(
      'weird',
    );
  });

  it('maps every annotation combination', () => {
    expect(byName(tools, 'mcp__fx__weird_name_with_spaces').permission).toBe('execute');
    expect(byName(tools, 'mcp__fx__destroy').permission).toBe('execute');
    expect(byName(tools, 'mcp__fx__fetch_page').permission).toBe('network');
    expect(byName(tools, 'mcp__fx__post_message').permission).toBe('execute');
    expect(byName(tools, 'mcp__fx__make_dir').permission).toBe('write');
  });

  it('propagates isError and turns audio into a note', async () => {
    const failed = await executeTool(byName(tools, 'mcp__fx__fail'), { reason: 'disk full' }, mcpTestContext());
    expect(failed.isError).toBe(true);
    expect(resultText(failed)).toBe('failed: disk full');
    const audio = await executeTool(byName(tools, 'mcp__fx__audio_clip'), {}, mcpTestContext());
    expect(resultText(audio)).toBe('Here is a clip:[audio: audio/wav, 300 bytes; audio cannot be shown here]');
  });

  it('reads text and binary resources', async () => {
    const read = byName(tools, 'mcp__fx__read_resource');
    expect(resultText(await read.execute({ uri: 'fixture://notes' }, mcpTestContext()))).toBe(
      'Resource fixture://notes (text/plain):\nremember the milk',
    );
    expect(resultText(await read.execute({ uri: 'fixture://logo.bin' }, mcpTestContext()))).toBe(
      'Resource fixture://logo.bin (application/octet-stream): binary data, 4 bytes (not shown).',
    );
  });

  it('cancellation reaches the server as notifications/cancelled', async () => {
    const controller = new AbortController();
    const running = executeTool(
      byName(tools, 'mcp__fx__wait_for_cancel'),
      {},
      mcpTestContext({ signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 100);
    const result = await running;
    expect(result.isError).toBe(true);
    await vi.waitFor(async () => expect(await readFile(cancelLog, 'utf8')).toMatch(/^cancelled \d+\n$/), {
      timeout: 5_000,
    });
  });

  it('refreshes the tool list on notifications/tools/list_changed and tells onToolsChanged', async () => {
    expect(tools.map((tool) => tool.name)).not.toContain('mcp__fx__added_1');
    const added = await executeTool(byName(tools, 'mcp__fx__add_tool'), {}, mcpTestContext());
    expect(resultText(added)).toBe('added_1');
    await vi.waitFor(() => expect(changes.length).toBeGreaterThan(0), { timeout: 5_000 });
    const latest = changes.at(-1) ?? [];
    const newTool = byName(latest, 'mcp__fx__added_1');
    expect(resultText(await newTool.execute({}, mcpTestContext()))).toBe('added_1');
    expect(source.status().toolCount).toBe(latest.length);
    const reloaded = await source.load();
    expect(reloaded.map((tool) => tool.name)).toContain('mcp__fx__added_1');
  });
});
