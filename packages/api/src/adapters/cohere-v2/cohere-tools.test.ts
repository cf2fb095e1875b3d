import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../spec/tool-definition.js';
import { prepareCohereTools } from './cohere-tools.js';

const tools: ToolDefinition[] = [
  {
    name: 'read',
    description: 'Read a file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  },
  { name: 'now', description: '', inputSchema: { type: 'object' } },
];

describe('prepareCohereTools', () => {
  it('sends function tools and no choice for auto', () => {
    expect(prepareCohereTools(tools, 'auto')).toEqual({
      tools: [
        {
          type: 'function',
          function: {
            name: 'read',
            description: 'Read a file',
            parameters: { type: 'object', properties: { path: { type: 'string' } } },
          },
        },
        { type: 'function', function: { name: 'now', parameters: { type: 'object' } } },
      ],
    });
  });

  it('maps required and none, and a named tool to that tool alone with REQUIRED', () => {
    expect(prepareCohereTools(tools, 'required').tool_choice).toBe('REQUIRED');
    expect(prepareCohereTools(tools, 'none').tool_choice).toBe('NONE');
    const named = prepareCohereTools(tools, { type: 'tool', name: 'now' });
    expect(named.tool_choice).toBe('REQUIRED');
    expect(named.tools?.map((tool) => tool.function.name)).toEqual(['now']);
  });

  it('sends nothing without tools', () => {
    expect(prepareCohereTools(undefined, 'required')).toEqual({});
    expect(prepareCohereTools([], 'none')).toEqual({});
  });
});
