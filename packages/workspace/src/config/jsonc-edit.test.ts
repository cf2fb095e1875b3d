import { type JSONPath, type ParseError, parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { editJsonc } from './jsonc-edit.js';

const SPACES = { insertSpaces: true, tabSize: 2, eol: '\n' };

const TEXT = `{
  // the model
  "model": "a/b", // trailing note
  "agents": {
    "build": { "temperature": 0.1, "maxTurns": 5 }
  },
  "empty": {},
  "list": ["x", "y"],
  /* last one */
  "last": true
}
`;

function expected(text: string, path: JSONPath, value: unknown): unknown {
  const object = parse(text) as Record<string, unknown>;
  let target: Record<string, unknown> = object;
  for (const key of path.slice(0, -1)) {
    if (value === undefined && target[String(key)] === undefined) return object;
    target[String(key)] ??= {};
    target = target[String(key)] as Record<string, unknown>;
  }
  const leaf = String(path.at(-1));
  if (value === undefined) delete target[leaf];
  else target[leaf] = value;
  return object;
}

describe('editJsonc', () => {
  it('adds a key to a one-line object on the same line', () => {
    expect(editJsonc(TEXT, ['agents', 'build', 'model'], 'c/d', SPACES)).toBe(
      TEXT.replace('"maxTurns": 5 }', '"maxTurns": 5, "model": "c/d" }'),
    );
  });

  it('adds a key to a multi-line object on its own line, after a trailing comment', () => {
    expect(editJsonc(TEXT, ['outputStyle'], 'concise', SPACES)).toBe(
      TEXT.replace('"last": true\n', '"last": true,\n  "outputStyle": "concise"\n'),
    );
  });

  it('creates missing parents, laid out like the siblings', () => {
    expect(editJsonc(TEXT, ['gateway', 'tokens', 'ci'], { secret: 'ci' }, SPACES)).toBe(
      TEXT.replace(
        '"last": true\n',
        '"last": true,\n  "gateway": {\n    "tokens": {\n      "ci": {\n        "secret": "ci"\n      }\n    }\n  }\n',
      ),
    );
  });

  it('fills an empty object in a multi-line parent over several lines', () => {
    expect(editJsonc(TEXT, ['empty', 'a'], 1, SPACES)).toBe(TEXT.replace('"empty": {}', '"empty": {\n    "a": 1\n  }'));
  });

  it('replaces values in place, keeping a one-line array on one line', () => {
    expect(editJsonc(TEXT, ['model'], 'x/y', SPACES)).toBe(TEXT.replace('"a/b"', '"x/y"'));
    expect(editJsonc(TEXT, ['list'], ['x', 'y', 'z'], SPACES)).toBe(TEXT.replace('["x", "y"]', '["x", "y", "z"]'));
  });

  it('removes a property with its line and keeps the comments of the others', () => {
    expect(editJsonc(TEXT, ['model'], undefined, SPACES)).toBe(
      TEXT.replace('  "model": "a/b", // trailing note\n', ''),
    );
    expect(editJsonc(TEXT, ['last'], undefined, SPACES)).toBe(
      TEXT.replace('"list": ["x", "y"],', '"list": ["x", "y"]').replace('  "last": true\n', ''),
    );
  });

  it('removes inside a one-line object', () => {
    expect(editJsonc(TEXT, ['agents', 'build', 'temperature'], undefined, SPACES)).toContain(
      '"build": { "maxTurns": 5 }',
    );
    expect(editJsonc(TEXT, ['agents', 'build', 'maxTurns'], undefined, SPACES)).toContain(
      '"build": { "temperature": 0.1 }',
    );
  });

  it('keeps tabs and CRLF line ends', () => {
    const text = '{\r\n\t"a": 1\r\n}\r\n';
    expect(editJsonc(text, ['b'], { c: 2 }, { insertSpaces: false, tabSize: 1, eol: '\r\n' })).toBe(
      '{\r\n\t"a": 1,\r\n\t"b": {\r\n\t\t"c": 2\r\n\t}\r\n}\r\n',
    );
  });

  it('respects a trailing comma that is already there', () => {
    expect(editJsonc('{\n  "a": 1,\n}\n', ['b'], 2, SPACES)).toBe('{\n  "a": 1,\n  "b": 2\n}\n');
  });

  it('always yields the intended document (sweep of paths and values)', () => {
    const paths: JSONPath[] = [
      ['model'],
      ['agents'],
      ['agents', 'build'],
      ['agents', 'build', 'temperature'],
      ['agents', 'plan', 'access'],
      ['empty'],
      ['empty', 'x', 'y'],
      ['list'],
      ['last'],
      ['new'],
    ];
    const values: unknown[] = [undefined, 'text', 3, false, null, [1, 'two'], { nested: { deep: [true] } }, {}];
    const texts = [
      TEXT,
      '{"model":"a/b","agents":{"build":{"temperature":0.1}},"empty":{},"list":[1]}',
      '{\n  "agents": {\n    "build": {},\n  },\n  "last": 1, // note\n}',
      '{}',
    ];
    for (const text of texts) {
      for (const path of paths) {
        for (const value of values) {
          const result = editJsonc(text, path, value, SPACES);
          const label = `${JSON.stringify(text)}: ${path.join('.')} = ${JSON.stringify(value)}`;
          const errors: ParseError[] = [];
          expect(parse(result, errors, { allowTrailingComma: true }), label).toEqual(expected(text, path, value));
          expect(errors, label).toEqual([]);
        }
      }
    }
    expect(editJsonc(TEXT, ['new'], 1, SPACES)).toContain('// the model');
  });
});
