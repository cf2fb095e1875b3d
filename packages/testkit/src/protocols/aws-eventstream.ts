/**
 * The AWS event-stream binary framing (`application/vnd.amazon.eventstream`) that Bedrock's
 * ConverseStream uses for its response body.
 *
 * A message is: total length (u32 BE), headers length (u32 BE), prelude CRC32 of those 8 bytes,
 * the headers, the payload, and a message CRC32 of everything before it. Both CRCs are the IEEE
 * (gzip) CRC32. A header is: name length (u8), name, value type (u8), value; type 7 is a string
 * with a u16 BE length.
 *
 * @see https://docs.aws.amazon.com/lexv2/latest/dg/event-stream-encoding.html
 * @see https://docs.aws.amazon.com/transcribe/latest/dg/event-stream.html
 */

/** One event-stream message: string headers and raw payload bytes. */
export interface EventStreamMessage {
  headers: Record<string, string>;
  payload: Uint8Array;
}

/** A frame that is cut short or whose lengths or checksums do not add up. */
export class EventStreamDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventStreamDecodeError';
  }
}

const PRELUDE_LENGTH = 12;
const MESSAGE_CRC_LENGTH = 4;
const HEADER_TYPE_STRING = 7;

const CRC_TABLE: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let index = 0; index < 256; index += 1) {
    let value = index;
    for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
    table[index] = value >>> 0;
  }
  return table;
})();

/** IEEE 802.3 CRC32 (reflected polynomial 0xEDB88320), table-driven. `crc32("123456789") === 0xcbf43926`. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffffffff;
  for (let index = start; index < end; index += 1) {
    crc = (CRC_TABLE[(crc ^ (bytes[index] ?? 0)) & 0xff] ?? 0) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder('utf-8', { fatal: true });

function encodeHeaders(headers: Record<string, string>): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const nameBytes = textEncoder.encode(name);
    const valueBytes = textEncoder.encode(value);
    if (nameBytes.length > 255) throw new RangeError(`Event-stream header name "${name}" is longer than 255 bytes.`);
    if (valueBytes.length > 0xffff) throw new RangeError(`Event-stream header "${name}" is longer than 65535 bytes.`);
    const header = new Uint8Array(1 + nameBytes.length + 1 + 2 + valueBytes.length);
    const view = new DataView(header.buffer);
    header[0] = nameBytes.length;
    header.set(nameBytes, 1);
    header[1 + nameBytes.length] = HEADER_TYPE_STRING;
    view.setUint16(2 + nameBytes.length, valueBytes.length);
    header.set(valueBytes, 4 + nameBytes.length);
    parts.push(header);
  }
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const result = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    result.set(part, offset);
    offset += part.length;
  }
  return result;
}

/**
 * Encode one message with string headers (value type 7) and both CRC32s.
 *
 * @example
 * encodeEventStreamMessage({ headers: { ':event-type': 'messageStart' }, payload: new TextEncoder().encode('{}') });
 */
export function encodeEventStreamMessage(message: EventStreamMessage): Uint8Array {
  const headerBytes = encodeHeaders(message.headers);
  const totalLength = PRELUDE_LENGTH + headerBytes.length + message.payload.length + MESSAGE_CRC_LENGTH;
  const bytes = new Uint8Array(totalLength);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, totalLength);
  view.setUint32(4, headerBytes.length);
  view.setUint32(8, crc32(bytes, 0, 8));
  bytes.set(headerBytes, PRELUDE_LENGTH);
  bytes.set(message.payload, PRELUDE_LENGTH + headerBytes.length);
  view.setUint32(totalLength - MESSAGE_CRC_LENGTH, crc32(bytes, 0, totalLength - MESSAGE_CRC_LENGTH));
  return bytes;
}

function hex(value: number): string {
  return `0x${value.toString(16).padStart(8, '0')}`;
}

/** Header values of every type, as strings (numbers in decimal, bytes and UUIDs in hex, timestamps as ISO). */
function decodeHeaders(bytes: Uint8Array, start: number, end: number, frameOffset: number): Record<string, string> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headers: Record<string, string> = {};
  let offset = start;
  const need = (count: number): void => {
    if (offset + count > end) {
      throw new EventStreamDecodeError(
        `Event-stream frame at byte ${frameOffset}: a header runs past the headers section.`,
      );
    }
  };
  while (offset < end) {
    need(1);
    const nameLength = bytes[offset] ?? 0;
    offset += 1;
    need(nameLength + 1);
    const name = textDecoder.decode(bytes.subarray(offset, offset + nameLength));
    offset += nameLength;
    const type = bytes[offset] ?? 0;
    offset += 1;
    let value: string;
    switch (type) {
      case 0:
      case 1:
        value = type === 0 ? 'true' : 'false';
        break;
      case 2:
        need(1);
        value = String(view.getInt8(offset));
        offset += 1;
        break;
      case 3:
        need(2);
        value = String(view.getInt16(offset));
        offset += 2;
        break;
      case 4:
        need(4);
        value = String(view.getInt32(offset));
        offset += 4;
        break;
      case 5:
      case 8: {
        need(8);
        const number = view.getBigInt64(offset);
        value = type === 5 ? number.toString() : new Date(Number(number)).toISOString();
        offset += 8;
        break;
      }
      case 6:
      case 7: {
        need(2);
        const length = view.getUint16(offset);
        offset += 2;
        need(length);
        const raw = bytes.subarray(offset, offset + length);
        value = type === 7 ? textDecoder.decode(raw) : Buffer.from(raw).toString('hex');
        offset += length;
        break;
      }
      case 9:
        need(16);
        value = Buffer.from(bytes.subarray(offset, offset + 16)).toString('hex');
        offset += 16;
        break;
      default:
        throw new EventStreamDecodeError(
          `Event-stream frame at byte ${frameOffset}: header "${name}" has unknown value type ${type}.`,
        );
    }
    headers[name] = value;
  }
  return headers;
}

/**
 * Split a body into its messages, checking every frame's lengths and both CRC32s.
 * Throws {@link EventStreamDecodeError} naming the frame's byte offset on a truncated frame or a checksum mismatch.
 */
export function decodeEventStream(bytes: Uint8Array): EventStreamMessage[] {
  const messages: EventStreamMessage[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  while (offset < bytes.length) {
    if (bytes.length - offset < PRELUDE_LENGTH) {
      throw new EventStreamDecodeError(
        `Event-stream frame at byte ${offset} is truncated: ${bytes.length - offset} bytes left, the prelude needs 12.`,
      );
    }
    const totalLength = view.getUint32(offset);
    const headersLength = view.getUint32(offset + 4);
    const preludeCrc = view.getUint32(offset + 8);
    const computedPreludeCrc = crc32(bytes, offset, offset + 8);
    if (preludeCrc !== computedPreludeCrc) {
      throw new EventStreamDecodeError(
        `Event-stream frame at byte ${offset}: prelude CRC mismatch (frame says ${hex(preludeCrc)}, ` +
          `bytes give ${hex(computedPreludeCrc)}).`,
      );
    }
    if (totalLength < PRELUDE_LENGTH + MESSAGE_CRC_LENGTH + headersLength) {
      throw new EventStreamDecodeError(
        `Event-stream frame at byte ${offset}: total length ${totalLength} is too small for ${headersLength} header bytes.`,
      );
    }
    if (offset + totalLength > bytes.length) {
      throw new EventStreamDecodeError(
        `Event-stream frame at byte ${offset} is truncated: it declares ${totalLength} bytes, ` +
          `${bytes.length - offset} arrived.`,
      );
    }
    const end = offset + totalLength;
    const messageCrc = view.getUint32(end - MESSAGE_CRC_LENGTH);
    const computedMessageCrc = crc32(bytes, offset, end - MESSAGE_CRC_LENGTH);
    if (messageCrc !== computedMessageCrc) {
      throw new EventStreamDecodeError(
        `Event-stream frame at byte ${offset}: message CRC mismatch (frame says ${hex(messageCrc)}, ` +
          `bytes give ${hex(computedMessageCrc)}).`,
      );
    }
    const headersStart = offset + PRELUDE_LENGTH;
    const payloadStart = headersStart + headersLength;
    messages.push({
      headers: decodeHeaders(bytes, headersStart, payloadStart, offset),
      payload: bytes.slice(payloadStart, end - MESSAGE_CRC_LENGTH),
    });
    offset = end;
  }
  return messages;
}
