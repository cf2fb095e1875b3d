import { describe, expect, it } from 'vitest';
import { prepareTools } from './openai-chat-tools.js';

const readTool = {
  name: 'read',
  description: 'Read a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

describe('prepareTools', () => {
  it('sends nothing without tools, even with a tool choice', () => {
    expect(prepareTools(undefined, 'required')).toEqual({});
    expect(prepareTools([], 'auto')).toEqual({});
  });

  it('wraps each tool as a function with its JSON Schema unchanged', () => {
    expect(prepareTools([readTool], undefined)).toEqual({
      tools: [
        { type: 'function', function: { name: 'read', description: 'Read a file', parameters: readTool.inputSchema } },
      ],
    });
  });

  it.each(['auto', 'none', 'required'] as const)('passes the tool choice %s through', (choice) => {
    expect(prepareTools([readTool], choice).tool_choice).toBe(choice);
  });

  it('names one tool as a function choice', () => {
    expect(prepareTools([readTool], { type: 'tool', name: 'read' }).tool_choice).toEqual({
      type: 'function',
      function: { name: 'read' },
    });
  });
});
