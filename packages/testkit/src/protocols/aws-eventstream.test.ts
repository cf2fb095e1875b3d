import { describe, expect, it } from 'vitest';
import { crc32, decodeEventStream, EventStreamDecodeError, encodeEventStreamMessage } from './aws-eventstream.js';

const text = new TextEncoder();
const payload = text.encode('{"foo": "bar"}');

describe('crc32', () => {
  it('matches the IEEE check values', () => {
    expect(crc32(text.encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(text.encode('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
  });

  it('covers only the given range', () => {
    const bytes = text.encode('xx123456789yy');
    expect(crc32(bytes, 2, 11)).toBe(0xcbf43926);
  });
});

describe('encodeEventStreamMessage', () => {
  // Known-answer vectors published with an independent encoder (hex.pm event_stream 0.1.0 docs).
  it('encodes a frame without headers byte for byte', () => {
    const bytes = encodeEventStreamMessage({ headers: {}, payload });
    expect([...bytes]).toEqual([0, 0, 0, 30, 0, 0, 0, 0, 186, 242, 246, 138, ...payload, 174, 114, 88, 228]);
  });

  it('encodes a string header as value type 7 byte for byte', () => {
    const bytes = encodeEventStreamMessage({ headers: { 'content-type': 'application/json' }, payload });
    const prelude = [0, 0, 0, 62, 0, 0, 0, 32];
    const preludeCrc = [64, 93, 249, 70];
    const header = [12, ...text.encode('content-type'), 7, 0, 16, ...text.encode('application/json')];
    const messageCrc = [111, 162, 191, 59];
    expect([...bytes]).toEqual([...prelude, ...preludeCrc, ...header, ...payload, ...messageCrc]);
  });
});

describe('decodeEventStream', () => {
  const first = encodeEventStreamMessage({
    headers: { ':event-type': 'messageStart', ':message-type': 'event', ':content-type': 'application/json' },
    payload: text.encode('{"role":"assistant"}'),
  });
  const second = encodeEventStreamMessage({
    headers: { ':event-type': 'contentBlockDelta', 'x-ünïcode': 'värde' },
    payload: text.encode('{"contentBlockIndex":0,"delta":{"text":"héllo"}}'),
  });
  const both = new Uint8Array([...first, ...second]);

  it('round-trips several concatenated frames', () => {
    const messages = decodeEventStream(both);
    expect(messages).toHaveLength(2);
    expect(messages[0]?.headers).toEqual({
      ':event-type': 'messageStart',
      ':message-type': 'event',
      ':content-type': 'application/json',
    });
    expect(new TextDecoder().decode(messages[0]?.payload)).toBe('{"role":"assistant"}');
    expect(messages[1]?.headers['x-ünïcode']).toBe('värde');
    expect(JSON.parse(new TextDecoder().decode(messages[1]?.payload))).toEqual({
      contentBlockIndex: 0,
      delta: { text: 'héllo' },
    });
  });

  it('decodes an empty body as no messages', () => {
    expect(decodeEventStream(new Uint8Array(0))).toEqual([]);
  });

  it('detects a flipped bit in the prelude', () => {
    const broken = both.slice();
    broken[first.length + 3] = (broken[first.length + 3] ?? 0) ^ 0x01;
    expect(() => decodeEventStream(broken)).toThrow(EventStreamDecodeError);
    expect(() => decodeEventStream(broken)).toThrow(`frame at byte ${first.length}: prelude CRC mismatch`);
  });

  it('detects a flipped byte in the payload', () => {
    const broken = both.slice();
    broken[first.length - 6] = (broken[first.length - 6] ?? 0) ^ 0xff;
    expect(() => decodeEventStream(broken)).toThrow('frame at byte 0: message CRC mismatch');
  });

  it('detects a flipped byte in the message CRC itself', () => {
    const broken = first.slice();
    broken[broken.length - 1] = (broken[broken.length - 1] ?? 0) ^ 0x10;
    expect(() => decodeEventStream(broken)).toThrow('message CRC mismatch');
  });

  it('detects a truncated frame and a truncated prelude', () => {
    expect(() => decodeEventStream(both.subarray(0, both.length - 1))).toThrow(
      `frame at byte ${first.length} is truncated`,
    );
    expect(() => decodeEventStream(both.subarray(0, first.length + 5))).toThrow('the prelude needs 12');
  });

  it('decodes non-string header types', () => {
    // name "n" type 4 (int32) value 258, name "b" type 0 (true).
    const headers = new Uint8Array([1, 110, 4, 0, 0, 1, 2, 1, 98, 0]);
    const total = 12 + headers.length + 4;
    const frame = new Uint8Array(total);
    const view = new DataView(frame.buffer);
    view.setUint32(0, total);
    view.setUint32(4, headers.length);
    view.setUint32(8, crc32(frame, 0, 8));
    frame.set(headers, 12);
    view.setUint32(total - 4, crc32(frame, 0, total - 4));
    expect(decodeEventStream(frame)[0]?.headers).toEqual({ n: '258', b: 'true' });
  });
});
