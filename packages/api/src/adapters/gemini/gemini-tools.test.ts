import { describe, expect, it } from 'vitest';
import { prepareGeminiTools } from './gemini-tools.js';

const read = {
  name: 'read',
  description: 'Read a file',
  inputSchema: { $schema: 'x', type: 'object', properties: { path: { type: 'string' } }, additionalProperties: false },
};
const now = { name: 'now', description: 'The time', inputSchema: { type: 'object', properties: {} } };

describe('prepareGeminiTools', () => {
  it('declares functions with converted parameters, none for a function without any', () => {
    expect(prepareGeminiTools([read, now], undefined)).toEqual({
      tools: [
        {
          functionDeclarations: [
            {
              name: 'read',
              description: 'Read a file',
              parameters: { type: 'OBJECT', properties: { path: { type: 'STRING' } } },
            },
            { name: 'now', description: 'The time' },
          ],
        },
      ],
    });
  });

  it('sends the JSON Schema as is (minus $schema) in json-schema mode', () => {
    const prepared = prepareGeminiTools([read], undefined, 'json-schema');
    expect(prepared.tools?.[0]?.functionDeclarations[0]).toEqual({
      name: 'read',
      description: 'Read a file',
      parametersJsonSchema: { type: 'object', properties: { path: { type: 'string' } }, additionalProperties: false },
    });
  });

  it.each([
    ['auto', { mode: 'AUTO' }],
    ['none', { mode: 'NONE' }],
    ['required', { mode: 'ANY' }],
    [
      { type: 'tool', name: 'read' },
      { mode: 'ANY', allowedFunctionNames: ['read'] },
    ],
  ] as const)('tool choice %j is functionCallingConfig %j', (choice, config) => {
    expect(prepareGeminiTools([read], choice).toolConfig).toEqual({ functionCallingConfig: config });
  });

  it('sends nothing without tools', () => {
    expect(prepareGeminiTools([], 'auto')).toEqual({});
    expect(prepareGeminiTools(undefined, undefined)).toEqual({});
  });
});
