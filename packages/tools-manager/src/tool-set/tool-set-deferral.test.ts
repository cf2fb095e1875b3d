import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnyTool, resultText } from '@boxagnts/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolSet } from './create-tool-set.js';
import { type CallLog, recordingTool, standardTools, testContext, testSource } from './test/fixtures.js';
import type { ToolSetEvent } from './tool-set-events.js';

let root: string;
let log: CallLog;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'deferral-'));
  log = [];
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function mcpTools(count: number): AnyTool[] {
  return Array.from({ length: count }, (_, index) =>
    recordingTool(`mcp__tracker__tool_${index}`, 'read-only', log, {
      description: index === 42 ? 'Create an invoice for a customer.' : `Tracker operation number ${index}.`,
    }),
  );
}

function names(tools: readonly AnyTool[]): string[] {
  return tools.map((tool) => tool.name);
}

describe('deferred tools', () => {
  it('defers 100 MCP tools behind tool_search; select: loads one, which then runs', async () => {
    const events: ToolSetEvent[] = [];
    const toolSet = await createToolSet({
      sources: [testSource('sandbox', standardTools(log)), testSource('mcp:tracker', mcpTools(100), 'mcp')],
      onEvent: (event) => events.push(event),
    });
    expect(names(toolSet.tools())).toEqual(['read', 'write', 'bash', 'web_fetch', 'tool_search']);
    expect(toolSet.all()).toHaveLength(105);
    expect(toolSet.isLoaded('mcp__tracker__tool_42')).toBe(false);
    expect(events[0]).toMatchObject({ type: 'tools-loaded', loaded: names(toolSet.tools()) });

    const context = testContext(root);
    const early = await toolSet.execute('mcp__tracker__tool_42', {}, context);
    expect(early.isError).toBe(true);
    expect(resultText(early)).toContain('select:mcp__tracker__tool_42');

    const found = await toolSet.execute('tool_search', { query: 'invoice customer' }, context);
    expect(resultText(found)).toContain('mcp__tracker__tool_42 (not loaded)');

    const selected = await toolSet.execute('tool_search', { query: 'select:mcp__tracker__tool_42' }, context);
    expect(selected.metadata).toMatchObject({ loaded: ['mcp__tracker__tool_42'] });
    expect(names(toolSet.tools())).toEqual([
      'read',
      'write',
      'bash',
      'web_fetch',
      'tool_search',
      'mcp__tracker__tool_42',
    ]);
    expect(events.filter((event) => event.type === 'tools-selected')).toEqual([
      { type: 'tools-selected', names: ['mcp__tracker__tool_42'] },
    ]);

    const ran = await toolSet.execute('mcp__tracker__tool_42', { path: 'x' }, context);
    expect(resultText(ran)).toBe('mcp__tracker__tool_42 ran with {"path":"x"}');
  });

  it('keeps small MCP sets loaded and adds no tool_search', async () => {
    const toolSet = await createToolSet({ sources: [testSource('mcp:tracker', mcpTools(3), 'mcp')] });
    expect(names(toolSet.tools())).toEqual(['mcp__tracker__tool_0', 'mcp__tracker__tool_1', 'mcp__tracker__tool_2']);
    expect(toolSet.get('tool_search')).toBeUndefined();
  });

  it('keeps selected tools loaded across refresh, and load() reports what is loaded', async () => {
    const toolSet = await createToolSet({
      sources: [testSource('mcp:tracker', mcpTools(10), 'mcp')],
      defer: { threshold: 5 },
    });
    expect(toolSet.load(['mcp__tracker__tool_1', 'nope', 'mcp__tracker__tool_1'])).toEqual(['mcp__tracker__tool_1']);
    await toolSet.refresh();
    expect(toolSet.isLoaded('mcp__tracker__tool_1')).toBe(true);
    expect(toolSet.isLoaded('mcp__tracker__tool_2')).toBe(false);
  });

  it('defers always the sources it is told to, and a source offering tool_search then collides', async () => {
    const plugin = testSource('plugin:lazy', [recordingTool('lazy_one', 'read-only', log)], 'plugin');
    const toolSet = await createToolSet({ sources: [plugin], defer: { sources: ['plugin:lazy'] } });
    expect(names(toolSet.tools())).toEqual(['tool_search']);
    const rival = testSource('custom', [recordingTool('tool_search', 'read-only', log)]);
    await expect(createToolSet({ sources: [plugin, rival], defer: { sources: ['plugin:lazy'] } })).rejects.toThrow(
      '"tool_search" is offered by both "custom" and "tool-set"',
    );
  });

  it('checks permissions on a selected tool like any other', async () => {
    const tools = Array.from({ length: 50 }, (_, index) => recordingTool(`mcp__ops__run_${index}`, 'execute', log));
    const toolSet = await createToolSet({
      sources: [testSource('mcp:ops', tools, 'mcp')],
      permissions: { rules: { deny: ['mcp__ops__run_7'] } },
    });
    toolSet.load(['mcp__ops__run_7']);
    const result = await toolSet.execute('mcp__ops__run_7', { command: 'x' }, testContext(root));
    expect(result.metadata?.permission).toMatchObject({ behavior: 'deny', rule: 'mcp__ops__run_7' });
    expect(log).toEqual([]);
  });
});
