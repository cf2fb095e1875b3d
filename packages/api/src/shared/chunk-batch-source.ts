import type { StreamEvent } from '../spec/stream-event.js';
import type { BatchSource } from './batch-source.js';
import { START_BATCHES } from './batch-source.js';
import { readBody } from './body-reader.js';
import type { ByteStream } from './read-event-stream.js';
import { KEEP_ALIVE } from './stream-with-retries.js';

/** Decodes a body's network chunks into stream events (one per stream: it may keep state). */
export interface ChunkDecoder {
  /**
   * Decodes one network chunk into `out`; returns whether it completed a frame (a keep-alive when
   * `out` stays empty). A throw fails the stream, after the events already in `out`.
   */
  chunk(chunk: Uint8Array | string, out: StreamEvent[]): boolean;
  /** After the last byte (not after a throw or a stop); may push closing events. */
  end(out: StreamEvent[]): void;
  /** Checked after each chunk: `true` stops reading at once (the connection is then dropped). */
  stopped?(): boolean;
}

/**
 * A {@link BatchSource} over a body for a non-SSE framing (NDJSON, AWS event-stream): one batch per
 * network chunk, pushed from the body's `data` callback when `streamWithRetries` starts it, or
 * yielded when iterated. `createDecoder` is called once per start or iteration.
 */
export function createChunkBatchSource(body: ByteStream, createDecoder: () => ChunkDecoder): BatchSource {
  return {
    [START_BATCHES](sink) {
      const decoder = createDecoder();
      return readBody(body, {
        chunk(chunk) {
          const out: StreamEvent[] = [];
          let framed: boolean;
          try {
            framed = decoder.chunk(chunk, out);
          } catch (error) {
            if (out.length > 0) sink.batch(out);
            throw error;
          }
          if (out.length > 0) sink.batch(out);
          else if (framed) sink.batch(KEEP_ALIVE);
          if (decoder.stopped?.() === true) {
            sink.end();
            return false;
          }
          return true;
        },
        end() {
          const out: StreamEvent[] = [];
          decoder.end(out);
          if (out.length > 0) sink.batch(out);
          sink.end();
        },
        error: (error) => sink.fail(error),
      });
    },
    async *[Symbol.asyncIterator]() {
      const decoder = createDecoder();
      for await (const chunk of body) {
        const out: StreamEvent[] = [];
        let framed: boolean;
        try {
          framed = decoder.chunk(chunk, out);
        } catch (error) {
          if (out.length > 0) yield out;
          throw error;
        }
        if (out.length > 0) yield out;
        else if (framed) yield KEEP_ALIVE;
        if (decoder.stopped?.() === true) return;
      }
      const out: StreamEvent[] = [];
      decoder.end(out);
      if (out.length > 0) yield out;
    },
  };
}
