import { Readable } from 'node:stream';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodersFor, readBody, UnsupportedEncodingError } from './read-body.js';

const never = new AbortController().signal;

describe('readBody', () => {
  it('decodes stacked codings in reverse order', async () => {
    const body = gzipSync(brotliCompressSync('layered'));
    const read = await readBody(Readable.from([body]), 'br, gzip', 1000, never);
    expect(read).toEqual({ bytes: Buffer.from('layered'), truncated: false });
  });

  it('stops at the decoded cap, not the encoded size', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const read = await readBody(Readable.from([bomb]), 'gzip', 100_000, never);
    expect(read.truncated).toBe(true);
    expect(read.bytes.length).toBe(100_000);
  });

  it('keeps what arrived before a corrupt stream, with the failure', async () => {
    const whole = gzipSync(Buffer.from('a'.repeat(50_000)));
    const read = await readBody(Readable.from([whole.subarray(0, whole.length - 20)]), 'gzip', 1_000_000, never);
    expect(read.truncated).toBe(false);
    expect(read.failure).toMatch(/unexpected end/i);
  });

  it('throws on unknown codings and on abort', async () => {
    expect(() => decodersFor('zstd')).toThrow(UnsupportedEncodingError);
    expect(decodersFor('identity')).toEqual([]);
    const controller = new AbortController();
    const endless = new Readable({ read() {} });
    const reading = readBody(endless, undefined, 1000, controller.signal);
    endless.push('partial');
    controller.abort(new Error('deadline'));
    await expect(reading).rejects.toThrow('deadline');
    expect(endless.destroyed).toBe(true);
  });
});
