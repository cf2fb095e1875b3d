import { describe, expect, it } from 'vitest';
import { declaredKeys, stripUndeclared } from './declared-input.js';

describe('declaredKeys and stripUndeclared', () => {
  it('keeps only the keys the JSON Schema names, also inside allOf/anyOf/oneOf', () => {
    const keys = declaredKeys({
      jsonSchema: {
        type: 'object',
        properties: { path: { type: 'string' } },
        anyOf: [{ properties: { content: { type: 'string' } } }],
      },
    });
    expect(stripUndeclared({ path: 'a', content: 'b', command: 'ls', __proto__x: 1 }, keys)).toEqual({
      path: 'a',
      content: 'b',
    });
  });
  it('keeps every key when the schema admits more, is free-form, or the tool has only a zod schema', () => {
    const input = { path: 'a', command: 'ls' };
    for (const jsonSchema of [
      { type: 'object', properties: { path: {} }, additionalProperties: true },
      { type: 'object', properties: { path: {} }, additionalProperties: { type: 'string' } },
      { type: 'object', properties: { path: {} }, patternProperties: { '^x': {} } },
      { type: 'object', properties: {} },
    ]) {
      expect(stripUndeclared(input, declaredKeys({ jsonSchema }))).toBe(input);
    }
    expect(stripUndeclared(input, declaredKeys({}))).toBe(input);
  });
  it('strips everything when the schema names no key and forbids others', () => {
    const keys = declaredKeys({ jsonSchema: { type: 'object', properties: {}, additionalProperties: false } });
    expect(stripUndeclared({ command: 'ls' }, keys)).toEqual({});
  });
});
