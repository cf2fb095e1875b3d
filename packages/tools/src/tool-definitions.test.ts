import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { toGeminiToolSchema, toToolDefinition } from './tool-definitions.js';
import { textResult } from './tool-results.js';

const search = defineTool({
  name: 'search',
  description: 'Search files.',
  inputSchema: z.object({
    pattern: z.string().describe('A regular expression'),
    limit: z.number().int().min(1).optional(),
    mode: z.enum(['files', 'content']).default('files'),
  }),
  permission: 'read-only',
  execute: async () => textResult(''),
});

describe('tool definitions', () => {
  it('exports the zod schema as JSON Schema without $schema', () => {
    const definition = toToolDefinition(search);
    expect(definition.name).toBe('search');
    expect(definition.inputSchema).toMatchObject({
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'A regular expression' },
        limit: { type: 'integer', minimum: 1 },
        mode: { type: 'string', enum: ['files', 'content'] },
      },
      required: ['pattern'],
    });
    expect(definition.inputSchema).not.toHaveProperty('$schema');
  });

  it('converts to the schema subset Gemini accepts', () => {
    const gemini = toGeminiToolSchema(search);
    expect(gemini).toMatchObject({ type: 'OBJECT', properties: { pattern: { type: 'STRING' } } });
    expect(JSON.stringify(gemini)).not.toContain('additionalProperties');
  });
});
