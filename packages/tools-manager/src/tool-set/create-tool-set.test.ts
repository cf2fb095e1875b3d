import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText } from '@boxagnts/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPermissionEngine } from '../permissions/permission-engine.js';
import { createToolSet } from './create-tool-set.js';
import { type CallLog, recordingTool, standardTools, testContext, testSource } from './test/fixtures.js';
import { isToolNameCollisionError, isToolSetError } from './tool-set-error.js';
import type { ToolSetEvent } from './tool-set-events.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'tool-set-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('createToolSet: assembling', () => {
  it('gives the model guarded copies of every tool, in source order', async () => {
    const log: CallLog = [];
    const inner = standardTools(log);
    const toolSet = await createToolSet({ sources: [testSource('sandbox', inner)] });
    const tools = toolSet.tools();
    expect(tools.map((tool) => tool.name)).toEqual(['read', 'write', 'bash', 'web_fetch']);
    for (const [index, tool] of tools.entries()) {
      const original = inner[index]!;
      expect(tool).not.toBe(original);
      expect(tool.description).toBe(original.description);
      expect(tool.inputSchema).toBe(original.inputSchema);
      expect(tool.permission).toBe(original.permission);
      expect(tool.timeoutMs).toBeUndefined();
    }
    expect(toolSet.all()).toEqual(inner);
    const parallel = { ...recordingTool('glob', 'read-only', log), concurrencySafe: false, timeoutMs: 5 };
    const other = await createToolSet({ sources: [testSource('custom', [parallel])] });
    expect(other.get('glob')).toMatchObject({ concurrencySafe: false });
    expect(other.get('glob')?.timeoutMs).toBeUndefined();
    expect(toolSet.get('bash')?.name).toBe('bash');
    expect(toolSet.get('nope')).toBeUndefined();
  });

  it('says which source offered each tool (for listings of where tools come from)', async () => {
    const log: CallLog = [];
    const toolSet = await createToolSet({
      sources: [
        testSource('native', [recordingTool('todo', 'read-only', log)], 'native'),
        testSource('mcp:github', [recordingTool('issues', 'read-only', log)], 'mcp'),
      ],
      defer: { threshold: 1 },
    });
    expect(toolSet.sourceOf('todo')).toEqual({ name: 'native', kind: 'native' });
    expect(toolSet.sourceOf('issues')).toEqual({ name: 'mcp:github', kind: 'mcp' });
    expect(toolSet.isLoaded('issues')).toBe(false);
    expect(toolSet.sourceOf('tool_search')).toEqual({ name: 'tool-set', kind: 'tool-set' });
    expect(toolSet.sourceOf('nope')).toBeUndefined();
  });

  it('throws a collision naming both sources, and closes the sources it was given', async () => {
    const log: CallLog = [];
    const sandbox = testSource('sandbox', standardTools(log), 'sandbox');
    const plugin = testSource('plugin:acme', [recordingTool('read', 'read-only', log)], 'plugin');
    const error = await createToolSet({ sources: [sandbox, plugin] }).catch((caught: unknown) => caught);
    expect(isToolNameCollisionError(error)).toBe(true);
    expect((error as Error).message).toBe(
      '"read" is offered by both "sandbox" and "plugin:acme"; rename one or drop it with deny.',
    );
    expect([sandbox.closes, plugin.closes]).toEqual([1, 1]);
  });

  it('filters by access level and by allow/deny lists', async () => {
    const toolSet = await createToolSet({
      sources: [testSource('sandbox', standardTools([]))],
      access: 'read-only',
      deny: ['web_fetch'],
    });
    expect(toolSet.tools().map((tool) => tool.name)).toEqual(['read']);
    const allowed = await createToolSet({
      sources: [testSource('sandbox', standardTools([]))],
      allow: ['b*', 'write'],
    });
    expect(allowed.tools().map((tool) => tool.name)).toEqual(['write', 'bash']);
  });

  it('answers an unknown tool with close names and never throws', async () => {
    const toolSet = await createToolSet({ sources: [testSource('sandbox', standardTools([]))] });
    const result = await toolSet.execute('raed', { path: 'a' }, testContext(root));
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe('Unknown tool "raed". Did you mean: read?');
    const unrelated = await toolSet.execute('deploy', {}, testContext(root));
    expect(resultText(unrelated)).toBe('Unknown tool "deploy". Available tools: read, write, bash, web_fetch.');
  });

  it('uses a given engine, or builds one from rules and mode', async () => {
    const engine = createPermissionEngine({ mode: 'bypass' });
    const given = await createToolSet({ sources: [], permissions: engine });
    expect(given.permissions).toBe(engine);
    const built = await createToolSet({ sources: [], permissions: { mode: 'accept-edits' } });
    expect(built.permissions.mode).toBe('accept-edits');
  });

  it('reports the loaded tools and the allow names that match nothing', async () => {
    const events: ToolSetEvent[] = [];
    await createToolSet({
      sources: [testSource('sandbox', standardTools([]), 'sandbox')],
      allow: ['read', 'raed'],
      onEvent: (event) => events.push(event),
    });
    expect(events).toEqual([
      {
        type: 'tools-loaded',
        loaded: ['read'],
        deferred: [],
        sources: [{ name: 'sandbox', kind: 'sandbox', tools: 1 }],
        unmatchedNames: ['raed'],
      },
    ]);
  });

  it('refreshes: new tools appear, removed ones go, and a failed refresh keeps the old set', async () => {
    const log: CallLog = [];
    let offered = [recordingTool('read', 'read-only', log)];
    const source = testSource('dynamic', () => offered);
    const toolSet = await createToolSet({ sources: [source] });
    offered = [recordingTool('grep', 'read-only', log)];
    await toolSet.refresh();
    expect(toolSet.tools().map((tool) => tool.name)).toEqual(['grep']);
    expect(resultText(await toolSet.execute('grep', { path: 'x' }, testContext(root)))).toContain('grep ran');
    offered = [recordingTool('grep', 'read-only', log), recordingTool('grep', 'read-only', log)];
    await expect(toolSet.refresh()).rejects.toSatisfy(isToolSetError);
    expect(toolSet.tools().map((tool) => tool.name)).toEqual(['grep']);
    expect(source.loads).toBe(3);
  });

  it('closes every source even when some fail, and reports the failures together', async () => {
    const good = testSource('good', []);
    const bad = testSource('mcp:bad', [], 'mcp', async () => {
      throw new Error('server hung');
    });
    const worse = testSource('plugin:worse', [], 'plugin', async () => {
      throw new Error('already gone');
    });
    const toolSet = await createToolSet({ sources: [bad, good, worse] });
    const error = await toolSet.close().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ reason: 'close-failed' });
    expect((error as Error).message).toBe(
      'Closing the tool set failed for sources "mcp:bad" (server hung), "plugin:worse" (already gone).',
    );
    expect(((error as Error).cause as AggregateError).errors).toHaveLength(2);
    expect([bad.closes, good.closes, worse.closes]).toEqual([1, 1, 1]);
    await toolSet.close();
    expect(good.closes).toBe(1);
    const after = await toolSet.execute('read', { path: 'a' }, testContext(root));
    expect(resultText(after)).toMatch(/tool set is closed/);
  });
});
