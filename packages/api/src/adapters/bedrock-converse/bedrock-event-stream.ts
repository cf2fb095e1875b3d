import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { NetworkError } from '../../spec/llm-error-classes.js';

/** One decoded `application/vnd.amazon.eventstream` message: its string headers and raw payload. */
export interface EventStreamMessage {
  /** `:message-type` (`event`, `exception` or `error`), `:event-type`, `:exception-type`, ... */
  headers: Record<string, string>;
  payload: Uint8Array;
}

/** Prelude (total and headers length, 4 bytes each) + prelude CRC + message CRC. */
const MINIMUM_MESSAGE_BYTES = 16;
/** A message is at most 16 MiB of payload plus 128 KiB of headers; anything larger is corruption. */
const MAXIMUM_MESSAGE_BYTES = 16 * 1024 * 1024 + 128 * 1024 + MINIMUM_MESSAGE_BYTES;

/**
 * Reads an AWS event stream as it arrives, one message per frame. The only framing done here is
 * cutting whole frames by the big-endian total length in their first four bytes (a frame may be
 * split across network chunks anywhere); decoding and both CRC32 checks are `@smithy/eventstream-codec`'s.
 * A corrupt frame, or a body that ends inside a frame, is a {@link NetworkError}.
 *
 * @see https://smithy.io/2.0/aws/amazon-eventstream.html
 */
export async function* readEventStream(
  body: AsyncIterable<Uint8Array>,
  providerId?: string,
): AsyncGenerator<EventStreamMessage, void, undefined> {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  let buffer: Uint8Array = new Uint8Array(0);
  const provider = providerId === undefined ? {} : { providerId };
  for await (const chunk of body) {
    buffer = buffer.byteLength === 0 ? chunk : concat(buffer, chunk);
    let offset = 0;
    while (buffer.byteLength - offset >= 4) {
      const view = new DataView(buffer.buffer, buffer.byteOffset + offset, 4);
      const length = view.getUint32(0, false);
      if (length < MINIMUM_MESSAGE_BYTES || length > MAXIMUM_MESSAGE_BYTES) {
        throw new NetworkError({
          ...provider,
          message: `The event stream is corrupt: a frame claims ${length} bytes; the connection was probably damaged.`,
        });
      }
      if (buffer.byteLength - offset < length) break;
      const frame = buffer.slice(offset, offset + length);
      offset += length;
      yield decode(codec, frame, provider);
    }
    buffer = offset === 0 ? buffer : buffer.slice(offset);
  }
  if (buffer.byteLength > 0) {
    throw new NetworkError({
      ...provider,
      message: `The event stream ended inside a frame (${buffer.byteLength} bytes left over); the connection was cut.`,
    });
  }
}

function decode(codec: EventStreamCodec, frame: Uint8Array, provider: { providerId?: string }): EventStreamMessage {
  let message: ReturnType<EventStreamCodec['decode']>;
  try {
    message = codec.decode(frame);
  } catch (error) {
    throw new NetworkError({
      ...provider,
      cause: error,
      message: `The event stream is corrupt (${error instanceof Error ? error.message : String(error)}).`,
    });
  }
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(message.headers)) {
    if (header.type === 'string') headers[name] = header.value;
  }
  return { headers, payload: message.body };
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  const joined = new Uint8Array(first.byteLength + second.byteLength);
  joined.set(first, 0);
  joined.set(second, first.byteLength);
  return joined;
}
