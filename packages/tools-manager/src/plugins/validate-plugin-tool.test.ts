import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeToolName, describeToolProblems } from './validate-plugin-tool.js';

const tool = {
  name: 'echo',
  description: 'Echo the text.',
  inputSchema: z.object({ text: z.string() }),
  permission: 'read-only',
  execute: async () => ({ content: [] }),
};

describe('describeToolProblems', () => {
  it('accepts a complete tool, with or without the optional fields', () => {
    expect(describeToolProblems(tool)).toEqual([]);
    expect(describeToolProblems({ ...tool, timeoutMs: 1000, concurrencySafe: false, deferred: true })).toEqual([]);
    for (const permission of ['read-only', 'write', 'execute', 'network']) {
      expect(describeToolProblems({ ...tool, permission })).toEqual([]);
    }
  });

  it('refuses values that are not objects', () => {
    expect(describeToolProblems(null)).toEqual(['a tool must be an object (defineTool({ ... })), got null']);
    expect(describeToolProblems('echo')[0]).toContain('got string');
  });

  it('names each problem', () => {
    expect(describeToolProblems({ ...tool, name: 'has.dot', deferred: 'yes' })).toEqual([
      'name must be 1-64 letters, digits, "_" or "-"',
      'deferred, when given, must be true or false',
    ]);
    expect(describeToolProblems({ ...tool, timeoutMs: Number.POSITIVE_INFINITY })).toEqual([
      'timeoutMs, when given, must be a positive number of milliseconds',
    ]);
  });

  it('tells a zod 3 schema apart from a missing one', () => {
    const zod3Like = { safeParse: () => ({ success: true }), _def: { typeName: 'ZodObject' } };
    expect(describeToolProblems({ ...tool, inputSchema: zod3Like })).toEqual([
      'inputSchema looks like a zod 3 schema; use zod 4 (import { z } from "zod" with zod >= 4)',
    ]);
    expect(describeToolProblems({ ...tool, inputSchema: undefined })[0]).toContain('must be a zod schema');
  });

  it('names a tool for messages even when it has no name', () => {
    expect(describeToolName(tool)).toBe('echo');
    expect(describeToolName({ name: 3 })).toBe('(unnamed)');
    expect(describeToolName(undefined)).toBe('(unnamed)');
  });
});
