import type { StreamEvent } from '../spec/stream-event.js';
import type { ByteStream } from './read-event-stream.js';
import { createSseParser, type SseEvent } from './sse-parser.js';
import { KEEP_ALIVE } from './stream-with-retries.js';

/** What {@link decodeSseStream} feeds each SSE event, and the end of the body, to. */
export interface SseStreamDecoder {
  /**
   * Maps one event onto `out`. A throw ends the stream with that error, after the events of the
   * chunks before it (and of this chunk, up to the throw) were yielded; later events are skipped.
   */
  event(event: SseEvent, out: StreamEvent[]): void;
  /** Called once after the last byte of a body that ended without a throw; may push closing events. */
  end?(out: StreamEvent[]): void;
  /** Checked after each chunk: `true` stops reading at once (the connection is then dropped). */
  stopped?(): boolean;
}

/**
 * Reads a `text/event-stream` body into stream events in one pass, the read loop every SSE adapter
 * shares: each network chunk goes through the SSE parser straight into the decoder, and the events
 * of that chunk are yielded as one batch (one async hop per network chunk, not per event). A chunk
 * that completed a frame (a comment, a `ping` or `keepalive` event, any event that maps to nothing)
 * but produced no event yields the {@link KEEP_ALIVE} batch, which restarts the stall timers, so a
 * model that reasons silently while its server sends keep-alives does not stall; bytes that complete
 * no frame yield nothing. The body is read to its end even after the terminal event (unless
 * `stopped()` says otherwise): `streamWithRetries` drains the rest in the background, so the
 * keep-alive connection goes back to the pool instead of being destroyed.
 *
 * @example
 * const decoder = new AcmeStreamDecoder();
 * yield* decodeSseStream(response.body, { event: (event, out) => decoder.push(event.data, out) });
 */
export async function* decodeSseStream(
  body: ByteStream,
  decoder: SseStreamDecoder,
): AsyncGenerator<readonly StreamEvent[], void, undefined> {
  let out: StreamEvent[] = [];
  let framed = false;
  let failure: { error: unknown } | undefined;
  const parser = createSseParser({
    onEvent: (event) => {
      framed = true;
      if (failure !== undefined) return;
      try {
        decoder.event(event, out);
      } catch (error) {
        failure = { error };
      }
    },
    onComment: () => {
      framed = true;
    },
  });
  for await (const chunk of body) {
    parser.feed(chunk);
    if (out.length > 0) {
      const batch = out;
      out = [];
      yield batch;
    } else if (framed && failure === undefined) {
      yield KEEP_ALIVE;
    }
    framed = false;
    if (failure !== undefined) throw failure.error;
    if (decoder.stopped?.() === true) return;
  }
  parser.end();
  if (failure === undefined) decoder.end?.(out);
  if (out.length > 0) yield out;
  if (failure !== undefined) throw failure.error;
}
