import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { executeTool, resultText } from '@boxagnts/tools';
import { describe, expect, it } from 'vitest';
import { createMcpToolSource } from './mcp-tool-source.js';
import { MAX_MCP_SCHEMA_DEPTH, MAX_MCP_SCHEMA_NODES, schemaBoundsProblem } from './schema-bounds.js';
import { mcpTestContext } from './test/mcp-test-servers.js';

const rawServer = join(dirname(fileURLToPath(import.meta.url)), 'test', 'fixtures', 'raw-list-server.mjs');

function nestedObjects(levels: number): unknown {
  let schema: unknown = { type: 'string' };
  for (let level = 0; level < levels; level++) schema = { type: 'object', properties: { inner: schema } };
  return schema;
}

describe('MCP tools with hostile input schemas', () => {
  it('a schema nested 3,000 levels refuses that one tool with a warning; the rest of the server loads', async () => {
    const warnings: string[] = [];
    const source = createMcpToolSource(
      { name: 'raw', transport: { type: 'stdio', command: process.execPath, args: [rawServer] } },
      {
        logger: {
          debug: () => {},
          info: () => {},
          warn: (message: string) => warnings.push(message),
          error: () => {},
        },
      },
    );
    try {
      const tools = await source.load();
      expect(tools.map((tool) => tool.name)).toEqual(['mcp__raw__echo', 'mcp__raw__after']);
      expect(source.status().refusedTools).toEqual([
        { name: 'deep', reason: `its input schema nests deeper than ${MAX_MCP_SCHEMA_DEPTH} levels` },
        { name: 'deep_arrays', reason: `its input schema nests deeper than ${MAX_MCP_SCHEMA_DEPTH} levels` },
      ]);
      expect(warnings.filter((warning) => warning.includes('"deep"') && warning.includes('refused'))).toHaveLength(1);
      const echo = tools[0];
      if (echo === undefined) throw new Error('no echo tool');
      expect(resultText(await executeTool(echo, { text: 'hi' }, mcpTestContext()))).toBe('echo: {"text":"hi"}');
    } finally {
      await source.close();
    }
  });

  it('listing at start-up gets the connect timeout, not the per-call timeout', async () => {
    const source = createMcpToolSource({
      name: 'slow',
      transport: {
        type: 'stdio',
        command: process.execPath,
        args: [rawServer],
        env: { LIST_DELAY_MS: '600', DEPTH: '3' },
      },
      timeoutMs: 150,
      connectTimeoutMs: 20_000,
    });
    try {
      const tools = await source.load();
      expect(tools.map((tool) => tool.name)).toEqual([
        'mcp__slow__echo',
        'mcp__slow__deep',
        'mcp__slow__deep_arrays',
        'mcp__slow__after',
      ]);
      expect(source.status().refusedTools).toEqual([]);
    } finally {
      await source.close();
    }
  });
});

describe('schemaBoundsProblem', () => {
  it('measures without recursion and stops at the bounds', () => {
    expect(schemaBoundsProblem(nestedObjects(10))).toBeUndefined();
    expect(schemaBoundsProblem(nestedObjects(5_000))).toContain('nests deeper');
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: MAX_MCP_SCHEMA_NODES }, (_, i) => [`p${i}`, {}])),
    };
    expect(schemaBoundsProblem(wide)).toContain('more than');
    expect(schemaBoundsProblem(undefined)).toBeUndefined();
  });
});
