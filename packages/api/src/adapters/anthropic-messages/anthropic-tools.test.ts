import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../spec/tool-definition.js';
import { prepareAnthropicTools } from './anthropic-tools.js';

const read: ToolDefinition = {
  name: 'read',
  description: 'Read a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};
const list: ToolDefinition = { name: 'list', description: '', inputSchema: { properties: {} } };

describe('prepareAnthropicTools', () => {
  it('sends name, description and input_schema (typed as an object)', () => {
    expect(prepareAnthropicTools([read, list], undefined)).toEqual({
      tools: [
        {
          name: 'read',
          description: 'Read a file',
          input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        },
        { name: 'list', input_schema: { type: 'object', properties: {} } },
      ],
    });
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['required', { type: 'any' }],
    ['none', { type: 'none' }],
    [
      { type: 'tool', name: 'read' },
      { type: 'tool', name: 'read' },
    ],
  ] as const)('maps tool choice %j to %j', (choice, expected) => {
    expect(prepareAnthropicTools([read], choice).tool_choice).toEqual(expected);
  });

  it('sends neither tools nor tool_choice without tools', () => {
    expect(prepareAnthropicTools([], 'required')).toEqual({});
    expect(prepareAnthropicTools(undefined, 'auto')).toEqual({});
  });

  it('marks only the last tool as a cache breakpoint when caching is on', () => {
    const { tools } = prepareAnthropicTools([read, list], 'auto', { cacheBreakpoint: true });
    expect(tools?.[0]).not.toHaveProperty('cache_control');
    expect(tools?.[1]).toMatchObject({ name: 'list', cache_control: { type: 'ephemeral' } });
  });
});
