import { describe, expect, it } from 'vitest';
import type { SourcedTool } from './load-sources.js';
import { selectTools } from './select-tools.js';
import { type CallLog, recordingTool, standardTools, testSource } from './test/fixtures.js';
import { isToolNameCollisionError, isToolSetError, ToolNameCollisionError } from './tool-set-error.js';

const log: CallLog = [];

function entries(sourceName: string, tools = standardTools(log)): SourcedTool[] {
  const source = testSource(sourceName, tools);
  return tools.map((tool) => ({ tool, source }));
}

function names(result: { entries: SourcedTool[] }): string[] {
  return result.entries.map((entry) => entry.tool.name);
}

describe('selectTools', () => {
  it('filters by access level on the permission, never the name', () => {
    expect(names(selectTools(entries('sandbox'), { access: 'full' }))).toEqual(['read', 'write', 'bash', 'web_fetch']);
    expect(names(selectTools(entries('sandbox'), { access: 'read-only' }))).toEqual(['read', 'web_fetch']);
    expect(names(selectTools(entries('sandbox'), { access: 'search-only' }))).toEqual(['read']);
  });

  it('applies allow and deny lists after the access level, and reports allow names matching nothing', () => {
    const result = selectTools(entries('sandbox'), {
      access: 'read-only',
      allow: ['read', 'web_*', 'bash', 'reed'],
      deny: ['web_fetch'],
    });
    expect(names(result)).toEqual(['read']);
    expect(result.unmatchedNames).toEqual(['bash', 'reed']);
  });

  it('throws a collision naming the tool and both sources', () => {
    const all = [...entries('sandbox'), ...entries('plugin:acme', [recordingTool('read', 'read-only', log)])];
    let error: unknown;
    try {
      selectTools(all, { access: 'full' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ToolNameCollisionError);
    expect(isToolNameCollisionError(error)).toBe(true);
    expect(isToolSetError(error)).toBe(true);
    expect((error as Error).message).toBe(
      '"read" is offered by both "sandbox" and "plugin:acme"; rename one or drop it with deny.',
    );
    expect((error as ToolNameCollisionError).sources).toEqual(['sandbox', 'plugin:acme']);
  });

  it('lets a deny list or the access level resolve a collision', () => {
    const all = [...entries('sandbox'), ...entries('plugin:acme', [recordingTool('bash', 'execute', log)])];
    expect(names(selectTools(all, { access: 'full', deny: ['bash'] }))).toEqual(['read', 'write', 'web_fetch']);
    expect(names(selectTools(all, { access: 'read-only' }))).toEqual(['read', 'web_fetch']);
  });
});
