import { defineTool, textResult } from '@boxagnts/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolCatalog } from './tool-catalog.js';

const tool = (name: string) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    inputSchema: z.object({ text: z.string() }),
    permission: 'read-only',
    execute: async ({ text }) => textResult(text),
  });

function refreshed(tools: ConstructorParameters<typeof ToolCatalog>[0]): ToolCatalog {
  const catalog = new ToolCatalog(tools);
  catalog.refresh();
  return catalog;
}

describe('ToolCatalog', () => {
  const echo = tool('echo');
  const read = tool('read');

  it('shares what it built with a later run whose fresh list holds the same tools in the same order', () => {
    const first = refreshed([echo, read]);
    const second = refreshed([echo, read]);
    expect(second.map).toBe(first.map);
    expect(second.definitions).toBe(first.definitions);
    expect(second.names).toEqual(['echo', 'read']);
    expect([...second.map.keys()]).toEqual(['echo', 'read']);
  });

  it('builds its own for another order, another tool or a longer list', () => {
    const base = refreshed([echo, read]);
    const reordered = refreshed([read, echo]);
    expect(reordered.names).toEqual(['read', 'echo']);
    const other = refreshed([echo, tool('read')]);
    expect(other.map).not.toBe(base.map);
    const longer = refreshed([echo, read, tool('write')]);
    expect(longer.names).toEqual(['echo', 'read', 'write']);
    // One list is remembered per first tool, the latest: the first list is built again, then shared.
    const again = refreshed([echo, read]);
    expect(again.map).not.toBe(base.map);
    expect(again.names).toEqual(['echo', 'read']);
    expect(refreshed([echo, read]).map).toBe(again.map);
  });

  it('is not fooled by a host that changes its array after a run', () => {
    const tools = [echo, read];
    const before = refreshed(tools);
    tools.pop();
    const after = refreshed(tools);
    expect(after.names).toEqual(['echo']);
    expect(before.names).toEqual(['echo', 'read']);
  });

  it('refreshes when a getter gives another list, and only then', () => {
    let list = [echo];
    const catalog = new ToolCatalog(() => list);
    expect(catalog.refresh()).toBe(true);
    expect(catalog.refresh()).toBe(false);
    list = [echo, read];
    expect(catalog.refresh()).toBe(true);
    expect(catalog.names).toEqual(['echo', 'read']);
  });
});
