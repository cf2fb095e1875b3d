import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { createEventStreamDecoder } from '../src/adapters/bedrock-converse/bedrock-event-stream.js';

/**
 * Why the Bedrock adapter keeps its own event-stream decoder instead of `@smithy/eventstream-codec`
 * (issue 16): both decode the same Bedrock Converse stream in the same process, interleaved round by
 * round, and the ratio library / ours is printed per write mode. Each candidate does the work the
 * adapter needs from a frame: both CRC checks, the string headers, and the payload as text.
 *
 * - `ours`: `createEventStreamDecoder` (slice-by-8 CRC in JS for short frames, native zlib CRC for
 *   long ones, a cached header block, payloads read in place).
 * - `smithy`: the frames cut by their length prefix (the cheapest framing there is, so the library
 *   is not charged for ours), then `EventStreamCodec.decode` (its CRC32, its header parser) and
 *   `toUtf8` of the body.
 *
 * Run: `pnpm --filter @boxagnts/api bench:codec` (also part of `pnpm bench`). Options: `--rounds N`.
 */

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** A Converse stream like the adapter benchmark's `bedrock-long`: start, ~680 text deltas, stop, metadata. */
function converseStream(): Uint8Array[] {
  const frame = (eventType: string, payload: unknown) =>
    codec.encode({
      headers: {
        ':event-type': { type: 'string', value: eventType },
        ':content-type': { type: 'string', value: 'application/json' },
        ':message-type': { type: 'string', value: 'event' },
      },
      body: fromUtf8(JSON.stringify(payload)),
    });
  const text = 'The "quick" brown fox — jumps over\nthe lazy dög, 😀 again and again. ';
  const frames = [frame('messageStart', { role: 'assistant', p: 'abcdefgh' })];
  for (let index = 0; index < 680; index += 1) {
    const start = (index * 4) % (text.length - 4);
    frames.push(
      frame('contentBlockDelta', {
        contentBlockIndex: 0,
        delta: { text: text.slice(start, start + 4) },
        p: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ',
      }),
    );
  }
  frames.push(frame('contentBlockStop', { contentBlockIndex: 0, p: 'abcd' }));
  frames.push(frame('messageStop', { stopReason: 'end_turn', p: 'abcdefghijklmn' }));
  frames.push(
    frame('metadata', { usage: { inputTokens: 12, outputTokens: 680, totalTokens: 692 }, metrics: { latencyMs: 900 } }),
  );
  return frames;
}

/** The stream as it arrives: one write per frame (`event`) or coalesced into 16 KiB writes (`16k`). */
function chunksOf(frames: readonly Uint8Array[], mode: 'event' | '16k'): Buffer[] {
  const all = Buffer.concat(frames);
  if (mode === 'event') return frames.map((frame) => Buffer.from(frame));
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < all.byteLength; offset += 16_384) chunks.push(all.subarray(offset, offset + 16_384));
  return chunks;
}

let sink = 0;

function decodeOurs(chunks: readonly Buffer[]): void {
  const decoder = createEventStreamDecoder('bench');
  for (const chunk of chunks) {
    decoder.push(chunk, (headers, bytes, start, end) => {
      sink += (headers[':event-type']?.length ?? 0) + bytes.toString('utf8', start, end).length;
    });
  }
  decoder.end();
}

function decodeSmithy(chunks: readonly Buffer[]): void {
  let pending: Buffer = Buffer.alloc(0);
  for (const chunk of chunks) {
    let bytes = pending.byteLength === 0 ? chunk : Buffer.concat([pending, chunk]);
    let offset = 0;
    while (bytes.byteLength - offset >= 4) {
      const length = bytes.readUInt32BE(offset);
      if (bytes.byteLength - offset < length) break;
      const message = codec.decode(bytes.subarray(offset, offset + length));
      const eventType = message.headers[':event-type']?.value;
      sink += (typeof eventType === 'string' ? eventType.length : 0) + toUtf8(message.body).length;
      offset += length;
    }
    pending = offset === bytes.byteLength ? Buffer.alloc(0) : Buffer.from(bytes.subarray(offset));
    bytes = pending;
  }
  if (pending.byteLength > 0) throw new Error('the stream ended inside a frame');
}

/** CPU microseconds per frame of `decode` over `repeat` whole streams. */
function measure(
  decode: (chunks: readonly Buffer[]) => void,
  chunks: readonly Buffer[],
  frames: number,
  repeat: number,
) {
  const start = process.cpuUsage();
  for (let index = 0; index < repeat; index += 1) decode(chunks);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / (repeat * frames);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function main(): void {
  const roundsFlag = process.argv.indexOf('--rounds');
  const rounds = roundsFlag === -1 ? 16 : Number(process.argv[roundsFlag + 1]);
  const frames = converseStream();
  const rows: string[] = [];
  for (const mode of ['event', '16k'] as const) {
    const chunks = chunksOf(frames, mode);
    // Warm both up so the JIT has compiled each before anything is measured.
    for (let index = 0; index < 100; index += 1) {
      decodeOurs(chunks);
      decodeSmithy(chunks);
    }
    const ours: number[] = [];
    const smithy: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      // Alternate which goes first so neither always runs on a warmer cache.
      const first = round % 2 === 0;
      const a = first ? measure(decodeOurs, chunks, frames.length, 40) : 0;
      const b = measure(decodeSmithy, chunks, frames.length, 40);
      const c = first ? a : measure(decodeOurs, chunks, frames.length, 40);
      ours.push(c);
      smithy.push(b);
      ratios.push(b / c);
    }
    rows.push(
      `| ${mode} | ${frames.length} | ${median(ours).toFixed(3)} | ${median(smithy).toFixed(3)} | ${median(ratios).toFixed(2)}x |`,
    );
  }
  process.stdout.write(
    [
      '',
      'Bedrock event-stream decoding, CPU µs per frame (median of interleaved rounds; ratio = smithy / ours)',
      '',
      '| mode | frames | ours µs/frame | @smithy/eventstream-codec µs/frame | ratio |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      `(checksum ${sink % 997})`,
      '',
    ].join('\n'),
  );
}

main();
