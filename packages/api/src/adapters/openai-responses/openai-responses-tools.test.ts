import { describe, expect, it } from 'vitest';
import { prepareOpenAIResponsesTools } from './openai-responses-tools.js';

const tools = [{ name: 'grep', description: 'Search', inputSchema: { type: 'object', properties: { q: {} } } }];

describe('prepareOpenAIResponsesTools', () => {
  it('sends flat function tools with strict off', () => {
    expect(prepareOpenAIResponsesTools(tools, undefined)).toEqual({
      tools: [
        { type: 'function', name: 'grep', description: 'Search', parameters: tools[0]?.inputSchema, strict: false },
      ],
    });
  });

  it.each([
    ['auto', 'auto'],
    ['none', 'none'],
    ['required', 'required'],
    [
      { type: 'tool', name: 'grep' },
      { type: 'function', name: 'grep' },
    ],
  ] as const)('maps tool choice %j to %j', (choice, expected) => {
    expect(prepareOpenAIResponsesTools(tools, choice).tool_choice).toEqual(expected);
  });

  it('sends nothing, not even a tool choice, without tools', () => {
    expect(prepareOpenAIResponsesTools(undefined, 'required')).toEqual({});
    expect(prepareOpenAIResponsesTools([], 'auto')).toEqual({});
  });
});
