import type { StreamEvent } from '../spec/stream-event.js';
import { type BatchSink, type BatchSource, type BatchSourceControl, START_BATCHES } from './batch-source.js';
import { readBody } from './body-reader.js';
import type { ByteStream } from './read-event-stream.js';
import { createSseScanner } from './sse-parser.js';
import { KEEP_ALIVE } from './stream-with-retries.js';

/** What {@link decodeSseStream} feeds each SSE event, and the end of the body, to. */
export interface SseStreamDecoder {
  /**
   * Maps one event (its `event:` type, `message` when it named none, and its joined `data:`) onto
   * `out`. A throw ends the stream with that error, after the events of the chunks before it (and of
   * this chunk, up to the throw) were yielded; later events are skipped. The fields come as two
   * strings, not an `SseEvent`, so a token stream allocates no object per event here.
   */
  event(type: string, data: string, out: StreamEvent[]): void;
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
 * The result is a {@link BatchSource}: `streamWithRetries` has it push each chunk's batch from the
 * body's `data` callback (no async hop per read); iterating it gives the same batches by pull.
 *
 * @example
 * const decoder = new AcmeStreamDecoder();
 * yield* decodeSseStream(response.body, { event: (_type, data, out) => decoder.push(data, out) });
 */
export function decodeSseStream(body: ByteStream, decoder: SseStreamDecoder): BatchSource {
  return {
    [START_BATCHES]: (sink) => pushSseBatches(body, decoder, sink),
    [Symbol.asyncIterator]: () => pullSseBatches(body, decoder),
  };
}

/** The SSE parser wired to `decoder`: each chunk's events land in `out`, a decoder throw in `failure`. */
function createSseDecoding(decoder: SseStreamDecoder) {
  const state = { out: [] as StreamEvent[], framed: false, failure: undefined as { error: unknown } | undefined };
  const parser = createSseScanner({
    event: (type, data) => {
      state.framed = true;
      if (state.failure !== undefined) return;
      try {
        decoder.event(type, data, state.out);
      } catch (error) {
        state.failure = { error };
      }
    },
    comment: () => {
      state.framed = true;
    },
  });
  return { state, parser };
}

/** The push path: the parser runs inside the body's `data` callback and hands each batch to `sink`. */
function pushSseBatches(body: ByteStream, decoder: SseStreamDecoder, sink: BatchSink): BatchSourceControl {
  const { state, parser } = createSseDecoding(decoder);
  return readBody(body, {
    chunk(chunk) {
      parser.feed(chunk);
      if (state.out.length > 0) {
        const batch = state.out;
        state.out = [];
        sink.batch(batch);
      } else if (state.framed && state.failure === undefined) {
        sink.batch(KEEP_ALIVE);
      }
      state.framed = false;
      if (state.failure !== undefined) throw state.failure.error;
      if (decoder.stopped?.() === true) {
        sink.end();
        return false;
      }
      return true;
    },
    end() {
      parser.end();
      if (state.failure === undefined) decoder.end?.(state.out);
      if (state.out.length > 0) sink.batch(state.out);
      if (state.failure !== undefined) throw state.failure.error;
      sink.end();
    },
    error: (error) => sink.fail(error),
  });
}

/** The pull path (the same batches, for callers that iterate). */
async function* pullSseBatches(
  body: ByteStream,
  decoder: SseStreamDecoder,
): AsyncGenerator<readonly StreamEvent[], void, undefined> {
  const { state, parser } = createSseDecoding(decoder);
  for await (const chunk of body) {
    parser.feed(chunk);
    if (state.out.length > 0) {
      const batch = state.out;
      state.out = [];
      yield batch;
    } else if (state.framed && state.failure === undefined) {
      yield KEEP_ALIVE;
    }
    state.framed = false;
    if (state.failure !== undefined) throw state.failure.error;
    if (decoder.stopped?.() === true) return;
  }
  parser.end();
  if (state.failure === undefined) decoder.end?.(state.out);
  if (state.out.length > 0) yield state.out;
  if (state.failure !== undefined) throw state.failure.error;
}
