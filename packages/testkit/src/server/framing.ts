import type { ProtocolRenderer, WireEvent } from '../protocols/protocol.js';

/** Encodes one wire event as the bytes a protocol sends (SSE, NDJSON or an AWS event-stream frame). */
export type EventEncoder = (event: WireEvent) => Uint8Array;

const encoder = new TextEncoder();

/** SSE framing: `event:` when given, one `data:` line per payload line, a blank line. */
export function encodeSse(event: WireEvent): Uint8Array {
  const head = event.event !== undefined ? `event: ${event.event}\n` : '';
  const data = event.data
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}\n`)
    .join('');
  return encoder.encode(`${head}${data}\n`);
}

/** NDJSON framing: the payload on one line. */
export function encodeNdjson(event: WireEvent): Uint8Array {
  return encoder.encode(`${event.data.replace(/\r?\n/g, ' ')}\n`);
}

/** An SSE comment line, the keep-alive of protocols with no ping event. */
export const SSE_COMMENT_PING: Uint8Array = encoder.encode(': ping\n\n');

/** The encoder for a renderer's framing. `awsFrame` encodes Bedrock's binary event-stream messages. */
export function encoderFor(renderer: ProtocolRenderer, awsFrame: EventEncoder): EventEncoder {
  switch (renderer.framing) {
    case 'sse':
      return encodeSse;
    case 'ndjson':
      return encodeNdjson;
    case 'aws-eventstream':
      return awsFrame;
  }
}

/** Regroup encoded events into writes of `size` bytes (the last may be shorter). */
export function regroup(buffers: Uint8Array[], size: number): Uint8Array[] {
  const total = Buffer.concat(buffers);
  const writes: Uint8Array[] = [];
  for (let offset = 0; offset < total.length; offset += size) writes.push(total.subarray(offset, offset + size));
  return writes;
}
