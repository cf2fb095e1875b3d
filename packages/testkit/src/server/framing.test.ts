import { describe, expect, it } from 'vitest';
import { encodeNdjson, encodeSse, regroup } from './framing.js';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('framing', () => {
  it('frames SSE with an optional event name and one data line per payload line', () => {
    expect(text(encodeSse({ event: 'ping', data: '{"type":"ping"}' }))).toBe('event: ping\ndata: {"type":"ping"}\n\n');
    expect(text(encodeSse({ data: '[DONE]' }))).toBe('data: [DONE]\n\n');
    expect(text(encodeSse({ data: 'a\nb' }))).toBe('data: a\ndata: b\n\n');
  });

  it('frames NDJSON on a single line', () => {
    expect(text(encodeNdjson({ data: '{"a":1}' }))).toBe('{"a":1}\n');
  });

  it('regroups bytes into fixed-size writes without losing any', () => {
    const writes = regroup([Buffer.from('abcde'), Buffer.from('fgh')], 3);
    expect(writes.map(text)).toEqual(['abc', 'def', 'gh']);
  });
});
