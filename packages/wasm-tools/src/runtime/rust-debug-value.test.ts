import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DebugJsonValue, parseRustDebugValue, RUST_DEBUG_MAX_DEPTH } from './rust-debug-value.js';

/** Escapes a string as Rust's `str::escape_debug` does (the test's own model of the printer). */
function rustString(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (char === '\0') out += '\\0';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += `\\u{${code.toString(16)}}`;
    else out += char;
  }
  return `${out}"`;
}

/** Prints a JSON value the way `format!("{:?}", serde_json::Value)` (or `{:#?}` when pretty) does. */
function rustDebug(value: DebugJsonValue, pretty = false, indent = ''): string {
  const inner = `${indent}    `;
  if (value === null) return 'Null';
  if (typeof value === 'boolean') return `Bool(${value})`;
  if (typeof value === 'number') return `Number(${JSON.stringify(value)})`;
  if (typeof value === 'string') return `String(${rustString(value)})`;
  if (Array.isArray(value)) {
    if (value.length === 0) return 'Array []';
    const items = value.map((item) => rustDebug(item, pretty, inner));
    return pretty
      ? `Array [\n${items.map((item) => `${inner}${item},\n`).join('')}${indent}]`
      : `Array [${items.join(', ')}]`;
  }
  const entries = Object.entries(value).map(([key, item]) => `${rustString(key)}: ${rustDebug(item, pretty, inner)}`);
  if (entries.length === 0) return 'Object {}';
  return pretty
    ? `Object {\n${entries.map((entry) => `${inner}${entry},\n`).join('')}${indent}}`
    : `Object {${entries.join(', ')}}`;
}

const jsonValue = fc.jsonValue({ maxDepth: 6 }) as fc.Arbitrary<DebugJsonValue>;
/** JSON's own idea of the value (drops -0 and the like), to compare with. */
const normalised = (value: unknown) => JSON.parse(JSON.stringify(value));

describe('parseRustDebugValue', () => {
  it('reads what BoxAgnts prints', () => {
    expect(
      parseRustDebugValue('Object {"content": String("File not found: ../outside.txt"), "is_error": Bool(true)}'),
    ).toEqual({ ok: true, value: { content: 'File not found: ../outside.txt', is_error: true } });
  });

  it('reads every JSON value printed by Rust, compact and pretty (property)', () => {
    fc.assert(
      fc.property(jsonValue, fc.boolean(), (value, pretty) => {
        const parsed = parseRustDebugValue(rustDebug(value, pretty));
        expect(parsed).toEqual({ ok: true, value: normalised(value) });
      }),
      { numRuns: 300 },
    );
  });

  it('reads the escapes and the older parenthesised spelling', () => {
    expect(parseRustDebugValue('String("a\\"b\\\\c\\n\\t\\r\\0\\\'\\u{1f600}\\u{7f}é")')).toEqual({
      ok: true,
      value: 'a"b\\c\n\t\r\0\'😀\u007fé',
    });
    expect(parseRustDebugValue('Object({"a": Array([Number(-1.5e3), Null])})')).toEqual({
      ok: true,
      value: { a: [-1500, null] },
    });
  });

  it('keeps "__proto__" as an own key and never touches the prototype', () => {
    const parsed = parseRustDebugValue('Object {"__proto__": Object {"polluted": Bool(true)}}');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(Object.keys(parsed.value as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(parsed.value)).toBe(Object.prototype);
  });

  it('never throws on any text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const parsed = parseRustDebugValue(text);
        expect(typeof parsed.ok).toBe('boolean');
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            'Object',
            'Array',
            'String',
            'Number',
            'Bool',
            'Null',
            '{',
            '}',
            '[',
            ']',
            '(',
            ')',
            '"',
            ',',
            ':',
            '\\',
            ' ',
            '1',
            'true',
          ),
          { maxLength: 60 },
        ),
        (tokens) => {
          const parsed = parseRustDebugValue(tokens.join(''));
          expect(typeof parsed.ok).toBe('boolean');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses every truncation of a valid text with an error, never a value or a throw', () => {
    const text = rustDebug({ content: 'line "1"\n', is_error: false, metadata: { n: 12.5, list: [null, true, 'x'] } });
    for (let end = 0; end < text.length; end++) {
      const parsed = parseRustDebugValue(text.slice(0, end));
      expect(parsed.ok, text.slice(0, end)).toBe(false);
    }
  });

  it('refuses nesting a million levels deep without overflowing the stack', () => {
    const depth = 1_000_000;
    const parsed = parseRustDebugValue(`${'Array ['.repeat(depth)}${']'.repeat(depth)}`);
    expect(parsed).toMatchObject({ ok: false, error: `nested deeper than ${RUST_DEBUG_MAX_DEPTH} levels` });
    const allowed = parseRustDebugValue(`${'Array ['.repeat(RUST_DEBUG_MAX_DEPTH)}${']'.repeat(RUST_DEBUG_MAX_DEPTH)}`);
    expect(allowed.ok).toBe(true);
  });

  it('reads a 3 MB string and a 20,000-entry object (more than the 1 MiB output cap lets through)', () => {
    const big = 'x\\n'.repeat(1_000_000);
    const parsed = parseRustDebugValue(`String("${big}")`);
    expect(parsed.ok && (parsed.value as string).length).toBe(2_000_000);
    const entries = Array.from({ length: 20_000 }, (_, index) => `"k${index}": Number(${index})`).join(', ');
    const object = parseRustDebugValue(`Object {${entries}}`);
    expect(object.ok && Object.keys(object.value as object).length).toBe(20_000);
  });

  it('says where a bad text goes wrong', () => {
    expect(parseRustDebugValue('Object {"a": Nul}')).toMatchObject({ ok: false, offset: 13 });
    expect(parseRustDebugValue('String("\\q")')).toMatchObject({ ok: false, error: 'unknown escape "\\q"' });
    expect(parseRustDebugValue('String("\\u{d800}")')).toMatchObject({ ok: false });
    expect(parseRustDebugValue('Bool(true) trailing')).toMatchObject({
      ok: false,
      error: 'unexpected text after the value',
    });
    expect(parseRustDebugValue('')).toMatchObject({ ok: false });
  });
});
