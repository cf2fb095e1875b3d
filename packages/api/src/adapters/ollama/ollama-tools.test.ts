import { describe, expect, it } from 'vitest';
import { prepareOllamaTools } from './ollama-tools.js';

const read = {
  name: 'read',
  description: 'Read',
  inputSchema: { $schema: 'x', type: 'object', properties: { p: { type: 'string' } } },
};
const write = { name: 'write', description: 'Write', inputSchema: { type: 'object', properties: {} } };

describe('prepareOllamaTools', () => {
  it('sends functions with their JSON Schema minus $schema', () => {
    expect(prepareOllamaTools([read, write], 'auto')).toEqual([
      {
        type: 'function',
        function: {
          name: 'read',
          description: 'Read',
          parameters: { type: 'object', properties: { p: { type: 'string' } } },
        },
      },
      {
        type: 'function',
        function: { name: 'write', description: 'Write', parameters: { type: 'object', properties: {} } },
      },
    ]);
  });

  it('approximates the tool choice Ollama lacks', () => {
    expect(prepareOllamaTools([read, write], 'none')).toBeUndefined();
    expect(
      prepareOllamaTools([read, write], { type: 'tool', name: 'write' })?.map((tool) => tool.function.name),
    ).toEqual(['write']);
    expect(prepareOllamaTools([read, write], 'required')).toHaveLength(2);
    expect(prepareOllamaTools([], 'auto')).toBeUndefined();
    expect(prepareOllamaTools([read], { type: 'tool', name: 'missing' })).toBeUndefined();
  });
});
