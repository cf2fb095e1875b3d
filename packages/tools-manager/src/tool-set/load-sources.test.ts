import { describe, expect, it } from 'vitest';
import { loadSources } from './load-sources.js';
import { type CallLog, recordingTool, testSource } from './test/fixtures.js';
import { isToolSetError } from './tool-set-error.js';

describe('loadSources', () => {
  it('keeps the sources order and pairs each tool with its source', async () => {
    const log: CallLog = [];
    const first = testSource('first', [recordingTool('read', 'read-only', log)]);
    const second = testSource('second', [recordingTool('bash', 'execute', log), recordingTool('write', 'write', log)]);
    const entries = await loadSources([first, second]);
    expect(entries.map((entry) => [entry.tool.name, entry.source.name])).toEqual([
      ['read', 'first'],
      ['bash', 'second'],
      ['write', 'second'],
    ]);
  });

  it('rejects a tool name providers would refuse, naming the source', async () => {
    const bad = { ...recordingTool('ok', 'read-only', []), name: 'has space' };
    const error = await loadSources([testSource('plugin:acme', [bad])]).catch((caught: unknown) => caught);
    expect(isToolSetError(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'invalid-tool-name', source: 'plugin:acme', tool: 'has space' });
    expect((error as Error).message).toContain('"plugin:acme"');
    expect((error as Error).message).toContain('"has space"');
  });

  it('rejects two sources of the same name', async () => {
    await expect(loadSources([testSource('same', []), testSource('same', [])])).rejects.toMatchObject({
      reason: 'duplicate-source',
      source: 'same',
    });
  });

  it('turns a failing load into an error naming the source', async () => {
    const broken = {
      name: 'mcp:github',
      kind: 'mcp' as const,
      load: async () => {
        throw new Error('connection refused');
      },
    };
    const error = await loadSources([broken]).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ reason: 'source-load-failed', source: 'mcp:github' });
    expect((error as Error).message).toMatch(/"mcp:github" failed to load its tools: connection refused/);
  });
});
