import { describe, expect, it } from 'vitest';
import { createNdjsonParser } from './ndjson-parser.js';

describe('createNdjsonParser', () => {
  it('parses one value per line, skipping blank lines and accepting \\r\\n', () => {
    const values: unknown[] = [];
    const parser = createNdjsonParser({ onValue: (value) => values.push(value) });
    parser.feed('{"a":1}\r\n\n  \n[2]\n');
    parser.feed('"three"');
    parser.end();
    expect(values).toEqual([{ a: 1 }, [2], 'three']);
  });

  it('reassembles values split across chunks, including inside a multi-byte character', () => {
    const bytes = new TextEncoder().encode('{"text":"ça 😀"}\n{"done":true}\n');
    for (let split = 1; split < bytes.length; split += 1) {
      const values: unknown[] = [];
      const parser = createNdjsonParser({ onValue: (value) => values.push(value) });
      parser.feed(bytes.subarray(0, split));
      parser.feed(bytes.subarray(split));
      parser.end();
      expect(values).toEqual([{ text: 'ça 😀' }, { done: true }]);
    }
  });

  it('reports invalid lines and goes on', () => {
    const values: unknown[] = [];
    const invalid: string[] = [];
    const parser = createNdjsonParser({
      onValue: (value) => values.push(value),
      onInvalidLine: (line) => invalid.push(line),
    });
    parser.feed('{"ok":1}\n{broken\n{"ok":2}\n');
    parser.end();
    expect(values).toEqual([{ ok: 1 }, { ok: 2 }]);
    expect(invalid).toEqual(['{broken']);
  });
});
