import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../spec/tool-definition.js';
import { prepareBedrockTools } from './bedrock-tools.js';

const tools: ToolDefinition[] = [
  {
    name: 'read',
    description: 'Read a file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  },
  { name: 'now', description: '', inputSchema: { type: 'object' } },
];

describe('prepareBedrockTools', () => {
  it('sends toolSpec entries with the schema under inputSchema.json, and no choice for auto', () => {
    expect(prepareBedrockTools({ tools, toolChoice: 'auto', toolNamesInHistory: [], cachePoint: false })).toEqual({
      tools: [
        {
          toolSpec: {
            name: 'read',
            description: 'Read a file',
            inputSchema: { json: { type: 'object', properties: { path: { type: 'string' } } } },
          },
        },
        { toolSpec: { name: 'now', inputSchema: { json: { type: 'object' } } } },
      ],
    });
  });

  it('maps required to any and a named tool to tool, with a cache point after the list', () => {
    expect(
      prepareBedrockTools({ tools, toolChoice: 'required', toolNamesInHistory: [], cachePoint: true }),
    ).toMatchObject({
      tools: [{ toolSpec: { name: 'read' } }, { toolSpec: { name: 'now' } }, { cachePoint: { type: 'default' } }],
      toolChoice: { any: {} },
    });
    expect(
      prepareBedrockTools({
        tools,
        toolChoice: { type: 'tool', name: 'now' },
        toolNamesInHistory: [],
        cachePoint: false,
      })?.toolChoice,
    ).toEqual({ tool: { name: 'now' } });
  });

  it('leaves tools out for none, unless the history holds tool blocks', () => {
    expect(
      prepareBedrockTools({ tools, toolChoice: 'none', toolNamesInHistory: [], cachePoint: false }),
    ).toBeUndefined();
    const withHistory = prepareBedrockTools({
      tools,
      toolChoice: 'none',
      toolNamesInHistory: ['read'],
      cachePoint: false,
    });
    expect(withHistory?.tools).toHaveLength(2);
    expect(withHistory?.toolChoice).toBeUndefined();
  });

  it('sends placeholders for tools the history calls when the request has none', () => {
    expect(prepareBedrockTools({ toolNamesInHistory: [], cachePoint: false })).toBeUndefined();
    expect(prepareBedrockTools({ toolNamesInHistory: ['grep'], cachePoint: true })).toEqual({
      tools: [
        {
          toolSpec: {
            name: 'grep',
            description: 'A tool called earlier in this conversation; it is not available now.',
            inputSchema: { json: { type: 'object', properties: {} } },
          },
        },
      ],
    });
  });
});
