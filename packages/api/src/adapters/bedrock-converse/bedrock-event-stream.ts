import { NetworkError } from '../../spec/llm-error-classes.js';
import { eventStreamCrc32 } from './bedrock-event-stream-crc32.js';

/** One decoded `application/vnd.amazon.eventstream` message: its string headers and raw payload. */
export interface EventStreamMessage {
  /**
   * `:message-type` (`event`, `exception` or `error`), `:event-type`, `:exception-type`, ... Frozen,
   * and shared by the messages of one stream whose header bytes are the same.
   */
  headers: Record<string, string>;
  /** A view into the received bytes (never copied); valid for as long as the caller keeps it. */
  payload: Uint8Array;
}

/**
 * Receives one decoded frame: its string headers and where its payload is, `bytes[payloadStart,
 * payloadEnd)`. The bytes are the received chunk itself (nothing is copied for a frame inside one
 * chunk), so read the payload before the next frame is pushed or copy it.
 */
export type EventStreamFrameHandler = (
  headers: Readonly<Record<string, string>>,
  bytes: Buffer,
  payloadStart: number,
  payloadEnd: number,
) => void;

/** Cuts an event stream into frames as its bytes arrive; see {@link createEventStreamDecoder}. */
export interface EventStreamDecoder {
  /** Decodes every frame `chunk` completes, in order, calling `onFrame` for each. */
  push(chunk: Uint8Array, onFrame: EventStreamFrameHandler): void;
  /** The body ended: throws a {@link NetworkError} if it ended inside a frame. */
  end(): void;
}

/** Prelude (total and headers length, 4 bytes each) + prelude CRC + message CRC. */
const MINIMUM_MESSAGE_BYTES = 16;
/** A message is at most 16 MiB of payload plus 128 KiB of headers; anything larger is corruption. */
const MAXIMUM_MESSAGE_BYTES = 16 * 1024 * 1024 + 128 * 1024 + MINIMUM_MESSAGE_BYTES;

/** Header value types and their fixed sizes (`-1`: a 2-byte length prefix; `-2`: unknown tag). */
const HEADER_VALUE_BYTES = [0, 0, 1, 2, 4, 8, -1, -1, 8, 16];
const STRING_TYPE = 7;

/**
 * A decoder of an AWS event stream (`application/vnd.amazon.eventstream`). Frames are cut by the
 * big-endian total length in their first four bytes (a frame may be split across network chunks
 * anywhere) and read in place: a frame inside one chunk is decoded from that chunk, and only a frame
 * that straddles chunks is copied, once, into a buffer of its exact length (so a large frame over
 * many chunks costs linear time). Both CRC32 checks (prelude and whole message) are made on every
 * frame; a corrupt frame is a {@link NetworkError}, as is a body that ends inside a frame. Only
 * string headers are kept; the others are skipped (Converse sends none).
 *
 * @example
 * const decoder = createEventStreamDecoder('bedrock');
 * for await (const chunk of body) decoder.push(chunk, (headers, bytes, start, end) => handle(headers, bytes.toString('utf8', start, end)));
 * decoder.end();
 *
 * @see https://smithy.io/2.0/aws/amazon-eventstream.html
 */
export function createEventStreamDecoder(providerId?: string): EventStreamDecoder {
  const provider = providerId === undefined ? {} : { providerId };
  /** The first bytes of a frame whose length is not known yet (fewer than four). */
  let head: Buffer | undefined;
  /** A straddling frame being filled, and how much of it is there. */
  let partial: Buffer | undefined;
  let filled = 0;
  const cache: HeaderCache = { bytes: undefined, headers: {} };

  const frameLength = (bytes: Buffer, offset: number): number => {
    const length = bytes.readUInt32BE(offset);
    if (length < MINIMUM_MESSAGE_BYTES || length > MAXIMUM_MESSAGE_BYTES) {
      throw new NetworkError({
        ...provider,
        message: `The event stream is corrupt: a frame claims ${length} bytes; the connection was probably damaged.`,
      });
    }
    return length;
  };

  return {
    push(chunk, onFrame) {
      let bytes = asBuffer(chunk);
      if (head !== undefined) {
        bytes = Buffer.concat([head, bytes]);
        head = undefined;
      }
      let offset = 0;
      if (partial !== undefined) {
        const frame = partial;
        const take = Math.min(frame.byteLength - filled, bytes.byteLength);
        bytes.copy(frame, filled, 0, take);
        filled += take;
        offset = take;
        if (filled < frame.byteLength) return;
        partial = undefined;
        decodeFrame(frame, 0, frame.byteLength, cache, provider, onFrame);
      }
      while (bytes.byteLength - offset >= 4) {
        const length = frameLength(bytes, offset);
        if (bytes.byteLength - offset < length) {
          // The frame goes on in the next chunks: copy what is here into a buffer of its length.
          partial = Buffer.allocUnsafe(length);
          filled = bytes.copy(partial, 0, offset);
          return;
        }
        const start = offset;
        offset += length;
        decodeFrame(bytes, start, length, cache, provider, onFrame);
      }
      if (offset < bytes.byteLength) head = Buffer.from(bytes.subarray(offset));
    },
    end() {
      const left = head?.byteLength ?? (partial === undefined ? 0 : filled);
      if (left > 0) {
        throw new NetworkError({
          ...provider,
          message: `The event stream ended inside a frame (${left} bytes left over); the connection was cut.`,
        });
      }
    },
  };
}

/**
 * Reads an AWS event stream as it arrives, one message at a time (the decoder of
 * {@link createEventStreamDecoder} behind an async generator, for callers that want one).
 */
export async function* readEventStream(
  body: AsyncIterable<Uint8Array>,
  providerId?: string,
): AsyncGenerator<EventStreamMessage, void, undefined> {
  const decoder = createEventStreamDecoder(providerId);
  const messages: EventStreamMessage[] = [];
  const onFrame: EventStreamFrameHandler = (headers, bytes, start, end) => {
    messages.push({ headers: headers as Record<string, string>, payload: bytes.subarray(start, end) });
  };
  for await (const chunk of body) {
    let failure: unknown;
    try {
      decoder.push(chunk, onFrame);
    } catch (error) {
      failure = error ?? new Error('The event stream decoder failed.');
    }
    // Messages before a corrupt frame are still delivered, then the error.
    for (const message of messages.splice(0)) yield message;
    if (failure !== undefined) throw failure;
  }
  decoder.end();
}

function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** The last header block decoded and its headers: the frames of a stream mostly repeat one block. */
interface HeaderCache {
  bytes: Buffer | undefined;
  headers: Readonly<Record<string, string>>;
}

/** Checks both CRCs of the frame at `bytes[start, start + length)`, reads its headers and hands it on. */
function decodeFrame(
  bytes: Buffer,
  start: number,
  length: number,
  cache: HeaderCache,
  provider: { providerId?: string },
  onFrame: EventStreamFrameHandler,
): void {
  const end = start + length;
  const headersLength = bytes.readUInt32BE(start + 4);
  const preludeCrc = bytes.readUInt32BE(start + 8);
  const computedPreludeCrc = eventStreamCrc32(bytes, start, start + 8);
  if (computedPreludeCrc !== preludeCrc) {
    throw corrupt(provider, `the prelude checksum ${preludeCrc} does not match the computed ${computedPreludeCrc}`);
  }
  const messageCrc = bytes.readUInt32BE(end - 4);
  const computedMessageCrc = eventStreamCrc32(bytes, start + 8, end - 4, computedPreludeCrc);
  if (computedMessageCrc !== messageCrc) {
    throw corrupt(provider, `the message checksum ${messageCrc} does not match the computed ${computedMessageCrc}`);
  }
  if (headersLength > length - MINIMUM_MESSAGE_BYTES) {
    throw corrupt(provider, `the headers claim ${headersLength} bytes of a ${length}-byte frame`);
  }
  const headersStart = start + 12;
  const headersEnd = headersStart + headersLength;
  // Every delta frame carries the same header bytes (`:event-type: contentBlockDelta`, ...): one
  // native compare instead of decoding six strings again.
  const known = cache.bytes;
  if (
    known === undefined ||
    known.byteLength !== headersLength ||
    known.compare(bytes, headersStart, headersEnd) !== 0
  ) {
    cache.headers = readHeaders(bytes, headersStart, headersEnd, provider);
    cache.bytes = Buffer.from(bytes.subarray(headersStart, headersEnd));
  }
  onFrame(cache.headers, bytes, headersEnd, end - 4);
}

/** The string headers of `bytes[start, end)`, frozen: messages with the same header bytes share them. */
function readHeaders(
  bytes: Buffer,
  start: number,
  end: number,
  provider: { providerId?: string },
): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  let position = start;
  while (position < end) {
    const nameLength = bytes[position] as number;
    const nameStart = position + 1;
    position = nameStart + nameLength;
    const type = position < end ? (bytes[position] as number) : -1;
    position += 1;
    let size = HEADER_VALUE_BYTES[type] ?? -2;
    if (size === -1 && position + 2 <= end) {
      size = bytes.readUInt16BE(position);
      position += 2;
      if (type === STRING_TYPE && position + size <= end) {
        headers[bytes.toString('utf8', nameStart, nameStart + nameLength)] = bytes.toString(
          'utf8',
          position,
          position + size,
        );
      }
    }
    if (size < 0 || position + size > end) throw corrupt(provider, 'a header is malformed');
    position += size;
  }
  return Object.freeze(headers);
}

function corrupt(provider: { providerId?: string }, detail: string): NetworkError {
  return new NetworkError({ ...provider, message: `The event stream is corrupt (${detail}).` });
}
