import { describe, expect, it } from 'vitest';
import { createSseParser, createSseScanner, type SseEvent } from './sse-parser.js';

function parseAll(chunks: Array<string | Uint8Array>): { events: SseEvent[]; comments: string[] } {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const parser = createSseParser({ onEvent: (event) => events.push(event), onComment: (text) => comments.push(text) });
  for (const chunk of chunks) parser.feed(chunk);
  parser.end();
  return { events, comments };
}

describe('createSseParser', () => {
  it('parses events with type, data, id and retry', () => {
    const { events } = parseAll(['event: message_start\ndata: {"a":1}\nid: 7\nretry: 1500\n\n']);
    expect(events).toEqual([{ event: 'message_start', data: '{"a":1}', id: '7', retry: 1500 }]);
  });

  it('defaults the type to message and joins multi-line data with \\n', () => {
    const { events } = parseAll(['data: first\ndata:second\ndata:  third\n\n']);
    expect(events).toEqual([{ event: 'message', data: 'first\nsecond\n third', id: undefined, retry: undefined }]);
  });

  it('accepts \\r\\n, \\r and \\n line endings, mixed', () => {
    const { events } = parseAll(['data: a\r\n\r\ndata: b\r\rdata: c\n\n']);
    expect(events.map((event) => event.data)).toEqual(['a', 'b', 'c']);
  });

  it('reports comments separately and never as events', () => {
    const { events, comments } = parseAll([': ping\n\n:keep-alive\n\ndata: x\n\n']);
    expect(comments).toEqual(['ping', 'keep-alive']);
    expect(events.map((event) => event.data)).toEqual(['x']);
  });

  it('strips a leading BOM from bytes and from strings', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('data: b\n\n')]);
    expect(parseAll([bytes]).events[0]?.data).toBe('b');
    expect(parseAll(['\uFEFFdata: s\n\n']).events[0]?.data).toBe('s');
  });

  it('keeps the last id across events and ignores ids with NUL and invalid retry values', () => {
    const { events } = parseAll(['id: 1\ndata: a\n\ndata: b\n\nid: x\0y\nretry: 12a\ndata: c\n\n']);
    expect(events.map((event) => [event.id, event.retry])).toEqual([
      ['1', undefined],
      ['1', undefined],
      ['1', undefined],
    ]);
  });

  it('does not dispatch an event without data, and resets the type after a blank line', () => {
    const { events } = parseAll(['event: ping\n\ndata: after\n\n']);
    expect(events).toEqual([{ event: 'message', data: 'after', id: undefined, retry: undefined }]);
  });

  it('treats a field without a colon as a field with an empty value', () => {
    const { events } = parseAll(['data\ndata\n\n']);
    expect(events[0]?.data).toBe('\n');
  });

  it('dispatches complete data lines at end() but drops an unterminated line', () => {
    expect(parseAll(['data: done\n']).events.map((event) => event.data)).toEqual(['done']);
    expect(parseAll(['data: {"partial']).events).toEqual([]);
  });

  it('gives the same events however the bytes are split, including inside \\r\\n and multi-byte characters', () => {
    const text = '\uFEFFevent: a\r\ndata: héllo 😀 wörld\r\n\r\n: c\rdata: 日本\rid: 9\r\rdata: z\n\n';
    const bytes = new TextEncoder().encode(text);
    const expected = parseAll([bytes]);
    expect(expected.events.map((event) => event.data)).toEqual(['héllo 😀 wörld', '日本', 'z']);
    for (let first = 1; first < bytes.length; first += 1) {
      for (const second of [first + 1, first + 3]) {
        const chunks = [bytes.subarray(0, first), bytes.subarray(first, second), bytes.subarray(second)];
        expect(parseAll(chunks)).toEqual(expected);
      }
    }
  });

  it('handles a stream fed one byte at a time', () => {
    const bytes = new TextEncoder().encode('data: ü\r\n\r\ndata: ß\r\r');
    const chunks = Array.from(bytes, (byte) => new Uint8Array([byte]));
    expect(parseAll(chunks).events.map((event) => event.data)).toEqual(['ü', 'ß']);
  });

  it('reads line-feed lines in place exactly as split ones: empty values, no space, look-alike field names', () => {
    const text =
      'event:delta\ndata:{"a":1}\n\nevent: \ndata:\ndata: x\n\neventful: no\ndatabase: no\ndat\ndata: kept\n\n' +
      'event: named\n: note\nid: 3\ndata: last\n\n';
    const expected = [
      { event: 'delta', data: '{"a":1}', id: undefined, retry: undefined },
      { event: 'message', data: '\nx', id: undefined, retry: undefined },
      { event: 'message', data: 'kept', id: undefined, retry: undefined },
      { event: 'named', data: 'last', id: '3', retry: undefined },
    ];
    expect(parseAll([text])).toEqual({ events: expected, comments: ['note'] });
    for (let cut = 1; cut < text.length; cut += 1) {
      expect(parseAll([text.slice(0, cut), text.slice(cut)])).toEqual({ events: expected, comments: ['note'] });
    }
    expect(parseAll(Array.from(text))).toEqual({ events: expected, comments: ['note'] });
  });
});

describe('createSseScanner', () => {
  it('hands over the same fields as createSseParser, as arguments', () => {
    const text = 'event: a\ndata: 1\nid: 5\nretry: 20\n\n: hi\ndata: 2\n\n';
    const seen: unknown[] = [];
    const scanner = createSseScanner({
      event: (type, data, id, retry) => seen.push({ event: type, data, id, retry }),
      comment: (comment) => seen.push(comment),
    });
    scanner.feed(new TextEncoder().encode(text));
    scanner.end();
    expect(seen).toEqual([...parseAll([text]).events.slice(0, 1), 'hi', ...parseAll([text]).events.slice(1)]);
    expect(seen).toEqual([
      { event: 'a', data: '1', id: '5', retry: 20 },
      'hi',
      { event: 'message', data: '2', id: '5', retry: undefined },
    ]);
  });
});
