import { describe, expect, it } from 'vitest';
import { deferredToolNames } from './defer-tools.js';
import type { SourcedTool } from './load-sources.js';
import { type CallLog, recordingTool, testSource } from './test/fixtures.js';

const log: CallLog = [];

function mcpEntries(count: number, serverName = 'mcp:big'): SourcedTool[] {
  const source = testSource(serverName, [], 'mcp');
  return Array.from({ length: count }, (_, index) => ({
    tool: recordingTool(`mcp__big__tool_${index}`, 'read-only', log),
    source,
  }));
}

describe('deferredToolNames', () => {
  it('defers nothing at or under the threshold', () => {
    expect(deferredToolNames(mcpEntries(40)).size).toBe(0);
  });

  it('defers MCP tools over the threshold, but not native ones or tools saying deferred: false', () => {
    const native = testSource('native', []);
    const entries = [
      { tool: recordingTool('read', 'read-only', log), source: native },
      ...mcpEntries(10),
      {
        tool: recordingTool('mcp__big__pinned', 'read-only', log, { deferred: false }),
        source: testSource('mcp:x', [], 'mcp'),
      },
    ];
    const deferred = deferredToolNames(entries, { threshold: 5 });
    expect(deferred.size).toBe(10);
    expect(deferred.has('read')).toBe(false);
    expect(deferred.has('mcp__big__pinned')).toBe(false);
    expect(deferred.has('mcp__big__tool_9')).toBe(true);
  });

  it('always defers tools saying deferred: true and tools of listed sources', () => {
    const plugin = testSource('plugin:acme', []);
    const entries = [
      { tool: recordingTool('lazy', 'read-only', log, { deferred: true }), source: testSource('native', []) },
      { tool: recordingTool('acme_one', 'read-only', log), source: plugin },
      { tool: recordingTool('other', 'read-only', log), source: testSource('custom', []) },
    ];
    expect([...deferredToolNames(entries, { sources: ['plugin:acme'] })].sort()).toEqual(['acme_one', 'lazy']);
  });
});
