import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** Destroys a stream without an unhandled `error` event (undici bodies emit AbortError when destroyed). */
export function discard(stream: Readable | Transform): void {
  stream.on('error', () => undefined);
  stream.destroy();
}

/** The content codings web_fetch asks for and decodes (zstd is left out: Node 20 has no decoder). */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** What reading a body produced: the decoded bytes (at most the cap) and why reading stopped early. */
export interface BodyRead {
  bytes: Buffer;
  /** Decoded bytes were cut at the cap (`maxBytes`); a compression bomb ends here. */
  truncated: boolean;
  /** The body or its decoding failed part-way; `bytes` holds what arrived before. */
  failure?: string;
}

/** Thrown for a `Content-Encoding` web_fetch cannot decode. */
export class UnsupportedEncodingError extends Error {
  constructor(encoding: string) {
    super(
      `The server sent Content-Encoding "${encoding}", which web_fetch cannot decode (it accepts ${ACCEPT_ENCODING}).`,
    );
    this.name = 'UnsupportedEncodingError';
  }
}

function decoderFor(encoding: string): Transform | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    case 'identity':
    case '':
      return undefined;
    default:
      throw new UnsupportedEncodingError(encoding);
  }
}

/** Decoders for a `Content-Encoding` header, in the order to apply them (the last coding first). */
export function decodersFor(contentEncoding: string | undefined): Transform[] {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '');
  return codings
    .reverse()
    .map(decoderFor)
    .filter((decoder): decoder is Transform => decoder !== undefined);
}

/**
 * Reads a response body, decoding its content codings incrementally, and stops as soon as the
 * DECODED size passes `maxBytes` (so a few KB of gzip that inflate to gigabytes cost at most the
 * cap). The streams are destroyed when reading stops, and when `signal` aborts.
 */
export async function readBody(
  body: Readable,
  contentEncoding: string | undefined,
  maxBytes: number,
  signal: AbortSignal,
): Promise<BodyRead> {
  let decoders: Transform[];
  try {
    decoders = decodersFor(contentEncoding);
  } catch (error) {
    discard(body);
    throw error;
  }
  const streams: Array<Readable | Transform> = [body, ...decoders];
  const output: Readable =
    decoders.length === 0
      ? body
      : (pipeline(streams as unknown as [Readable, ...Transform[]], () => {
          // Errors surface through the iteration below.
        }) as unknown as Readable);
  const destroyAll = () => {
    for (const stream of streams) discard(stream);
  };
  if (signal.aborted) destroyAll();
  signal.addEventListener('abort', destroyAll, { once: true });
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of output) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      const room = maxBytes - size;
      if (buffer.length > room) {
        chunks.push(buffer.subarray(0, room));
        size += room;
        return { bytes: Buffer.concat(chunks, size), truncated: true };
      }
      chunks.push(buffer);
      size += buffer.length;
    }
    return { bytes: Buffer.concat(chunks, size), truncated: false };
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    return {
      bytes: Buffer.concat(chunks, size),
      truncated: false,
      failure: error instanceof Error ? error.message : String(error),
    };
  } finally {
    signal.removeEventListener('abort', destroyAll);
    destroyAll();
  }
}
