import { createNdjsonParser } from './ndjson-parser.js';
import { createSseParser, type SseEvent } from './sse-parser.js';

/** A response body as undici, Node streams or tests give it. */
export type ByteStream = AsyncIterable<Uint8Array | string>;

/** Options of {@link readServerSentEvents}. */
export interface ReadServerSentEventsOptions {
  /** Sees `:` comment lines (keep-alives); they are never yielded as events. */
  onComment?(comment: string): void;
}

/**
 * Reads a `text/event-stream` body as an async iterable of events, pulling one network chunk at a
 * time (no web-stream pipeline in between). Stopping the iteration cancels the body.
 *
 * @example
 * for await (const event of readServerSentEvents(response.body)) {
 *   if (event.data === '[DONE]') break;
 *   handle(JSON.parse(event.data));
 * }
 */
export async function* readServerSentEvents(
  body: ByteStream,
  options: ReadServerSentEventsOptions = {},
): AsyncGenerator<SseEvent, void, undefined> {
  const pending: SseEvent[] = [];
  const parser = createSseParser({
    onEvent: (event) => pending.push(event),
    ...(options.onComment === undefined ? {} : { onComment: options.onComment }),
  });
  for await (const chunk of body) {
    parser.feed(chunk);
    if (pending.length > 0) yield* drain(pending);
  }
  parser.end();
  yield* drain(pending);
}

/**
 * Reads a `text/event-stream` body as one array of events per network chunk. A chunk that completes
 * only `:` comments (keep-alives) yields an empty array; a chunk that completes nothing (half an
 * event) yields nothing. The fast path for adapters: map each array to an array of stream events and
 * yield that, empty or not, to `streamWithRetries`: nothing between the socket and the caller
 * pays an async hop per event, and an empty array tells the stall timers the server is alive.
 *
 * @example
 * for await (const batch of readServerSentEventBatches(response.body)) {
 *   const out: StreamEvent[] = [];
 *   for (const event of batch) decoder.push(event, out);
 *   yield out; // empty when the chunk held only keep-alives (a `ping` event, a comment)
 * }
 */
export async function* readServerSentEventBatches(
  body: ByteStream,
  options: ReadServerSentEventsOptions = {},
): AsyncGenerator<SseEvent[], void, undefined> {
  let pending: SseEvent[] = [];
  let commented = false;
  const parser = createSseParser({
    onEvent: (event) => pending.push(event),
    onComment: (comment) => {
      commented = true;
      options.onComment?.(comment);
    },
  });
  for await (const chunk of body) {
    parser.feed(chunk);
    if (pending.length > 0) {
      const batch = pending;
      pending = [];
      commented = false;
      yield batch;
    } else if (commented) {
      commented = false;
      yield [];
    }
  }
  parser.end();
  if (pending.length > 0) yield pending;
}

/**
 * Reads a newline-delimited JSON body as one array of parsed values per network chunk (see
 * {@link readServerSentEventBatches}); invalid lines go to `onInvalidLine`.
 */
export async function* readNdjsonBatches(
  body: ByteStream,
  options: { onInvalidLine?(invalid: InvalidNdjsonLine): void } = {},
): AsyncGenerator<unknown[], void, undefined> {
  let pending: unknown[] = [];
  const parser = createNdjsonParser({
    onValue: (value) => pending.push(value),
    onInvalidLine: (line, error) => options.onInvalidLine?.({ line, error }),
  });
  for await (const chunk of body) {
    parser.feed(chunk);
    if (pending.length > 0) {
      const batch = pending;
      pending = [];
      yield batch;
    }
  }
  parser.end();
  if (pending.length > 0) yield pending;
}

/** A line of an NDJSON body that was not valid JSON. */
export interface InvalidNdjsonLine {
  line: string;
  error: unknown;
}

/**
 * Reads a newline-delimited JSON body as an async iterable of parsed values; invalid lines go to
 * `onInvalidLine` (default: skipped) so one bad line does not end the stream.
 *
 * @example
 * for await (const chunk of readNdjson(response.body)) handle(chunk);
 */
export async function* readNdjson(
  body: ByteStream,
  options: { onInvalidLine?(invalid: InvalidNdjsonLine): void } = {},
): AsyncGenerator<unknown, void, undefined> {
  const pending: unknown[] = [];
  const parser = createNdjsonParser({
    onValue: (value) => pending.push(value),
    onInvalidLine: (line, error) => options.onInvalidLine?.({ line, error }),
  });
  for await (const chunk of body) {
    parser.feed(chunk);
    if (pending.length > 0) yield* drain(pending);
  }
  parser.end();
  yield* drain(pending);
}

function* drain<T>(pending: T[]): Generator<T, void, undefined> {
  const batch = pending.splice(0, pending.length);
  for (const item of batch) yield item;
}
