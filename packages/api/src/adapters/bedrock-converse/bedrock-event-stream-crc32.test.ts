import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { eventStreamCrc32 } from './bedrock-event-stream-crc32.js';

describe('eventStreamCrc32', () => {
  it('equals zlib.crc32 for every length and offset, with and without a previous value', () => {
    const bytes = Buffer.alloc(3000);
    for (let index = 0; index < bytes.byteLength; index += 1) bytes[index] = (index * 7919 + 13) & 0xff;
    for (const start of [0, 1, 3, 8]) {
      for (let length = 0; length <= 40; length += 1) {
        const end = start + length;
        expect(eventStreamCrc32(bytes, start, end)).toBe(crc32(bytes.subarray(start, end)));
        expect(eventStreamCrc32(bytes, start, end, 0xdeadbeef)).toBe(crc32(bytes.subarray(start, end), 0xdeadbeef));
      }
    }
    for (const length of [140, 1023, 1024, 1025, 2999]) {
      expect(eventStreamCrc32(bytes, 1, 1 + length, 7)).toBe(crc32(bytes.subarray(1, 1 + length), 7));
    }
  });
});
