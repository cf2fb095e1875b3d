import { describe, expect, it } from 'vitest';
import { toGeminiSchema } from './gemini-schema.js';

describe('toGeminiSchema', () => {
  it('keeps the supported subset and upper-cases types', () => {
    expect(
      toGeminiSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        additionalProperties: false,
        properties: {
          path: { type: 'string', description: 'File path', minLength: 1, pattern: '^/' },
          lines: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 10 },
        },
        required: ['path', 'missing'],
      }),
    ).toEqual({
      type: 'OBJECT',
      properties: {
        path: { type: 'STRING', description: 'File path', minLength: 1, pattern: '^/' },
        lines: { type: 'ARRAY', items: { type: 'INTEGER', minimum: 1 }, maxItems: 10 },
      },
      required: ['path'],
    });
  });

  it('returns undefined for a function without parameters', () => {
    expect(toGeminiSchema({ type: 'object', properties: {} })).toBeUndefined();
    expect(toGeminiSchema({ type: 'object', additionalProperties: false })).toBeUndefined();
  });

  it('turns ["string", "null"] into nullable and several types into anyOf', () => {
    expect(
      toGeminiSchema({
        type: 'object',
        properties: { a: { type: ['string', 'null'] }, b: { type: ['string', 'number'], description: 'id' } },
      }),
    ).toEqual({
      type: 'OBJECT',
      properties: {
        a: { type: 'STRING', nullable: true },
        b: { description: 'id', anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] },
      },
    });
  });

  it('turns anyOf with null into nullable and flattens a single member', () => {
    expect(
      toGeminiSchema({
        type: 'object',
        properties: {
          when: { description: 'When', anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
          either: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        },
      }),
    ).toEqual({
      type: 'OBJECT',
      properties: {
        when: { type: 'STRING', format: 'date-time', description: 'When', nullable: true },
        either: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] },
      },
    });
  });

  it('inlines $ref from $defs and definitions, stopping at recursion', () => {
    const schema = {
      type: 'object',
      properties: {
        point: { $ref: '#/$defs/Point' },
        tree: { $ref: '#/definitions/Node', description: 'Root' },
      },
      $defs: { Point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      definitions: {
        Node: { type: 'object', properties: { child: { $ref: '#/definitions/Node' } } },
      },
    };
    expect(toGeminiSchema(schema)).toEqual({
      type: 'OBJECT',
      properties: {
        point: { type: 'OBJECT', properties: { x: { type: 'NUMBER' } }, required: ['x'] },
        tree: { type: 'OBJECT', properties: { child: { type: 'OBJECT' } }, description: 'Root' },
      },
    });
  });

  it('turns const into enum and moves non-string enums into the description', () => {
    expect(
      toGeminiSchema({
        type: 'object',
        properties: {
          kind: { const: 'file' },
          level: { type: 'integer', enum: [1, 2, 3], description: 'Level' },
          mode: { type: 'string', enum: ['r', 'w', null] },
        },
      }),
    ).toEqual({
      type: 'OBJECT',
      properties: {
        kind: { type: 'STRING', enum: ['file'] },
        level: { type: 'INTEGER', description: 'Level (one of: 1, 2, 3)' },
        mode: { type: 'STRING', enum: ['r', 'w'], nullable: true },
      },
    });
  });

  it('drops unsupported formats and keywords, maps exclusive bounds and examples', () => {
    expect(
      toGeminiSchema({
        type: 'object',
        properties: {
          url: { type: 'string', format: 'uri', examples: ['https://a.test'] },
          size: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10, multipleOf: 2, format: 'double' },
          tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, contains: { const: 'x' } },
          any: {},
          never: { not: { type: 'string' } },
        },
        patternProperties: { '^x-': { type: 'string' } },
      }),
    ).toEqual({
      type: 'OBJECT',
      properties: {
        url: { type: 'STRING', example: 'https://a.test' },
        size: { type: 'NUMBER', minimum: 0, maximum: 10, format: 'double' },
        tags: { type: 'ARRAY', items: { type: 'STRING' } },
        any: {},
        never: {},
      },
    });
  });

  it('merges allOf and reads tuples as anyOf items', () => {
    expect(
      toGeminiSchema({
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'boolean' } }, required: ['b'] },
        ],
        properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } },
      }),
    ).toEqual({
      type: 'OBJECT',
      properties: {
        a: { type: 'STRING' },
        b: { type: 'BOOLEAN' },
        pair: { type: 'ARRAY', items: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] } },
      },
      required: ['a', 'b'],
    });
  });
});
