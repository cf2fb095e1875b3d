import { EventStreamCodec, Int64 } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { describe, expect, it } from 'vitest';
import { isNetworkError } from '../../spec/llm-error-classes.js';
import { type EventStreamMessage, readEventStream } from './bedrock-event-stream.js';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

function frame(eventType: string, payload: unknown, messageType = 'event'): Uint8Array {
  const typeHeader = messageType === 'exception' ? ':exception-type' : ':event-type';
  return codec.encode({
    headers: {
      [typeHeader]: { type: 'string', value: eventType },
      ':message-type': { type: 'string', value: messageType },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

async function* chunks(...parts: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield part;
}

async function read(body: AsyncIterable<Uint8Array>): Promise<EventStreamMessage[]> {
  const messages: EventStreamMessage[] = [];
  for await (const message of readEventStream(body, 'bedrock')) messages.push(message);
  return messages;
}

function join(...parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((size, part) => size + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.byteLength;
  }
  return all;
}

const first = frame('messageStart', { role: 'assistant' });
const second = frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'héllo 😀' } });
const third = frame('throttlingException', { message: 'slow down' }, 'exception');

describe('readEventStream', () => {
  it('decodes frames and their string headers', async () => {
    const messages = await read(chunks(first, second, third));
    expect(messages.map((message) => message.headers[':event-type'] ?? message.headers[':exception-type'])).toEqual([
      'messageStart',
      'contentBlockDelta',
      'throttlingException',
    ]);
    expect(messages[2]?.headers[':message-type']).toBe('exception');
    expect(JSON.parse(new TextDecoder().decode(messages[1]?.payload))).toEqual({
      contentBlockIndex: 0,
      delta: { text: 'héllo 😀' },
    });
  });

  it('decodes the same whatever the chunk boundaries (every split point, and one byte at a time)', async () => {
    const all = join(first, second, third);
    const expected = await read(chunks(all));
    for (let cut = 1; cut < all.byteLength; cut += 1) {
      const messages = await read(chunks(all.subarray(0, cut), all.subarray(cut)));
      expect(messages).toEqual(expected);
    }
    const bytes = [...all].map((byte) => Uint8Array.of(byte));
    expect(await read(chunks(...bytes))).toEqual(expected);
  });

  it('a body that ends inside a frame is a network error after the whole frames', async () => {
    const seen: string[] = [];
    const error = await (async () => {
      for await (const message of readEventStream(chunks(first, second.subarray(0, 20)), 'bedrock')) {
        seen.push(message.headers[':event-type'] ?? '');
      }
    })().catch((thrown: unknown) => thrown);
    expect(seen).toEqual(['messageStart']);
    expect(isNetworkError(error)).toBe(true);
    expect((error as Error).message).toContain('ended inside a frame');
  });

  it('a frame with a bad CRC or an impossible length is a network error', async () => {
    const corrupt = second.slice();
    corrupt[corrupt.byteLength - 10] = (corrupt[corrupt.byteLength - 10] ?? 0) ^ 0xff;
    await expect(read(chunks(corrupt))).rejects.toMatchObject({ reason: 'network' });
    await expect(read(chunks(Uint8Array.of(0, 0, 0, 3, 1, 2, 3, 4)))).rejects.toMatchObject({
      reason: 'network',
      message: expect.stringContaining('claims 3 bytes'),
    });
  });

  it('any single corrupted byte is a network error, after exactly the frames before it', async () => {
    const all = join(first, second, third);
    const expected = await read(chunks(all));
    const boundaries = [first.byteLength, first.byteLength + second.byteLength, all.byteLength];
    for (let position = 0; position < all.byteLength; position += 1) {
      const corrupt = all.slice();
      corrupt[position] = (corrupt[position] ?? 0) ^ 0x5a;
      const seen: EventStreamMessage[] = [];
      const error = await (async () => {
        for await (const message of readEventStream(chunks(corrupt), 'bedrock')) seen.push(message);
      })().catch((thrown: unknown) => thrown);
      expect(isNetworkError(error), `byte ${position}`).toBe(true);
      const intact = boundaries.findIndex((end) => position < end);
      expect(seen).toEqual(expected.slice(0, intact));
    }
  });

  it('skips headers of other types as the Smithy codec reads them, keeping the string ones', async () => {
    const headers = {
      ':event-type': { type: 'string', value: 'contentBlockDelta' },
      flag: { type: 'boolean', value: true },
      off: { type: 'boolean', value: false },
      tiny: { type: 'byte', value: -3 },
      small: { type: 'short', value: 300 },
      medium: { type: 'integer', value: 70_000 },
      large: { type: 'long', value: Int64.fromNumber(5_000_000_000) },
      blob: { type: 'binary', value: Uint8Array.of(1, 2, 3) },
      when: { type: 'timestamp', value: new Date(0) },
      id: { type: 'uuid', value: '0123abcd-0123-4567-89ab-0123456789ab' },
      ':message-type': { type: 'string', value: 'event' },
    } as const;
    const mixed = codec.encode({ headers, body: fromUtf8('{"contentBlockIndex":0}') });
    const [message] = await read(chunks(mixed));
    const smithy = codec.decode(mixed);
    const strings = Object.fromEntries(
      Object.entries(smithy.headers).flatMap(([name, header]) =>
        header.type === 'string' ? [[name, header.value]] : [],
      ),
    );
    expect(message?.headers).toEqual(strings);
    expect(message?.headers).toEqual({ ':event-type': 'contentBlockDelta', ':message-type': 'event' });
    expect(new TextDecoder().decode(message?.payload)).toBe('{"contentBlockIndex":0}');
  });

  it('reads a large frame split over many chunks', async () => {
    const text = 'x'.repeat(200_000);
    const large = frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text } });
    const all = join(first, large, second);
    const parts: Uint8Array[] = [];
    for (let offset = 0; offset < all.byteLength; offset += 1000) parts.push(all.subarray(offset, offset + 1000));
    const messages = await read(chunks(...parts));
    expect(messages).toHaveLength(3);
    expect(JSON.parse(new TextDecoder().decode(messages[1]?.payload)).delta.text).toBe(text);
  });
});
