import { describe, expect, it } from 'vitest';
import { checkToolInputValue, createToolInputBuffer, parseToolInput } from './tool-input.js';

describe('parseToolInput', () => {
  it('parses an object and treats empty text and null as {}', () => {
    expect(parseToolInput('{"path":"a.txt","n":[1,{"b":"}"}]}')).toEqual({
      ok: true,
      input: { path: 'a.txt', n: [1, { b: '}' }] },
    });
    expect(parseToolInput('')).toEqual({ ok: true, input: {} });
    expect(parseToolInput('  \n')).toEqual({ ok: true, input: {} });
    expect(parseToolInput('null')).toEqual({ ok: true, input: {} });
  });

  it('returns a typed error for invalid JSON and non-objects', () => {
    const invalid = parseToolInput('{"path": "a.txt"');
    expect(invalid.ok).toBe(false);
    if (!invalid.ok) {
      expect(invalid.error.kind).toBe('invalid-json');
      expect(invalid.error.rawInput).toBe('{"path": "a.txt"');
      expect(invalid.error.message).toContain('send one JSON object');
    }
    expect(parseToolInput('[1,2]')).toMatchObject({ ok: false, error: { kind: 'not-an-object' } });
    expect(parseToolInput('"text"')).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('a string') },
    });
  });

  it('refuses deep nesting before JSON.parse, ignoring brackets inside strings', () => {
    const bomb = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    const result = parseToolInput(`{"a":${bomb}}`, { maxLength: 10_000_000 });
    expect(result).toMatchObject({ ok: false, error: { kind: 'too-deep' } });
    if (!result.ok) expect(result.error.rawInput.length).toBe(2_000);
    expect(parseToolInput('{"a":{"b":{}}}', { maxDepth: 2 })).toMatchObject({ ok: false, error: { kind: 'too-deep' } });
    expect(parseToolInput('{"a":"[[[[[[\\"{{{{"}', { maxDepth: 1 })).toEqual({ ok: true, input: { a: '[[[[[["{{{{' } });
  });

  it('refuses text over maxLength', () => {
    expect(parseToolInput(`{"a":"${'x'.repeat(100)}"}`, { maxLength: 50 })).toMatchObject({
      ok: false,
      error: { kind: 'too-large' },
    });
  });
});

describe('checkToolInputValue', () => {
  it('accepts a parsed object within limits and refuses deep, large, cyclic or non-object values', () => {
    expect(checkToolInputValue({ a: [1, 2] })).toEqual({ ok: true, input: { a: [1, 2] } });
    expect(checkToolInputValue({ a: { b: { c: {} } } }, { maxDepth: 3 })).toMatchObject({
      ok: false,
      error: { kind: 'too-deep' },
    });
    expect(checkToolInputValue({ a: 'x'.repeat(100) }, { maxLength: 50 })).toMatchObject({
      ok: false,
      error: { kind: 'too-large' },
    });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(checkToolInputValue(cyclic)).toMatchObject({ ok: false, error: { kind: 'too-deep' } });
    expect(checkToolInputValue([1])).toMatchObject({ ok: false, error: { kind: 'not-an-object' } });
  });

  it('counts only own values: an inherited nested value does not make a flat input deep', () => {
    const input = Object.assign(Object.create({ inherited: { a: { b: {} } } }) as Record<string, unknown>, { x: 1 });
    expect(checkToolInputValue(input, { maxDepth: 1 })).toEqual({ ok: true, input });
    expect(checkToolInputValue({ x: 1, nested: { a: 1 } }, { maxDepth: 1 })).toMatchObject({
      ok: false,
      error: { kind: 'too-deep' },
    });
  });
});

describe('createToolInputBuffer', () => {
  it('accumulates deltas and parses once', () => {
    const buffer = createToolInputBuffer();
    for (const piece of ['{"pa', 'th":"a', '.txt"}']) buffer.append(piece);
    expect(buffer.text).toBe('{"path":"a.txt"}');
    expect(buffer.parse()).toEqual({ ok: true, input: { path: 'a.txt' } });
  });

  it('stops keeping text past maxLength and reports the full size', () => {
    const buffer = createToolInputBuffer({ maxLength: 10 });
    for (let index = 0; index < 100; index += 1) buffer.append('aaaaa');
    expect(buffer.text.length).toBeLessThanOrEqual(15);
    const result = buffer.parse();
    expect(result).toMatchObject({ ok: false, error: { kind: 'too-large' } });
    if (!result.ok) expect(result.error.message).toContain('500 characters');
  });
});
