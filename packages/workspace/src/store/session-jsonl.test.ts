import { describe, expect, it } from 'vitest';
import { formatSessionJsonl, parseSessionJsonl } from './session-jsonl.js';
import { isStoreError } from './store-error.js';

const header =
  '{"type":"session","format":"boxagnts.session","version":1,"session":{"id":"s","title":"T","createdAt":1,"updatedAt":2}}';

function lineOf(run: () => unknown): number | undefined {
  try {
    run();
  } catch (error) {
    if (isStoreError(error)) return error.line;
    throw error;
  }
  return undefined;
}

describe('session JSONL', () => {
  it('round-trips a session, keeping unknown message fields and ignoring blank lines and CRLF', () => {
    const text = formatSessionJsonl(
      { id: 's', title: 'T', kind: 'session', createdAt: 1, updatedAt: 2, messageCount: 1 },
      [{ sessionId: 's', seq: 1, message: { role: 'user', content: 'hi', vendorField: 7 } as never, createdAt: 5 }],
    );
    expect(text.split('\n')).toEqual([
      header,
      '{"type":"message","seq":1,"message":{"role":"user","content":"hi","vendorField":7},"createdAt":5}',
      '',
    ]);
    const parsed = parseSessionJsonl(`${text.replaceAll('\n', '\r\n')}\r\n\r\n`);
    expect(parsed.session).toEqual({ id: 's', title: 'T', createdAt: 1, updatedAt: 2 });
    expect(parsed.entries).toEqual([{ message: { role: 'user', content: 'hi', vendorField: 7 }, createdAt: 5 }]);
  });

  it('names the line of every kind of bad input', () => {
    expect(lineOf(() => parseSessionJsonl(header.replace('"version":1', '"version":2')))).toBe(1);
    expect(lineOf(() => parseSessionJsonl(`${header}\n\n{"type":"message","seq":1,"message":{"role":"user"}}`))).toBe(
      3,
    );
    expect(
      lineOf(() =>
        parseSessionJsonl(`${header}\n{"type":"message","seq":1,"message":{"role":"user","content":"a"}}\n[]`),
      ),
    ).toBe(3);
    expect(
      lineOf(() => parseSessionJsonl(`${header}\n{"type":"message","seq":2,"message":{"role":"user","content":"a"}}`)),
    ).toBe(2);
    expect(lineOf(() => parseSessionJsonl('\n\n'))).toBe(1);
    expect(lineOf(() => parseSessionJsonl(42 as unknown as string))).toBe(1);
  });
});
