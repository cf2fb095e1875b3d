import type { StreamEvent } from '../spec/stream-event.js';
import { RetryingStream } from './retrying-stream.js';
import type { OpenStream, StreamWithRetriesOptions } from './stream-batches.js';

export { KEEP_ALIVE, type OpenStream, type StreamEventBatch, type StreamWithRetriesOptions } from './stream-batches.js';

/**
 * Runs a provider stream with retries, stall timers and the stream contract the loop relies on.
 * Until the first content event (a delta, a block end, a redacted-thinking block or message-end)
 * `message-start`, `usage` and block starts are held back; a retryable failure in that window
 * (thrown, an `error` event, a stall, or the stream ending early) opens a new attempt after the
 * backoff of {@link decideRetry}. From the first content event on, any failure becomes one terminal
 * `error` event. The result never throws, never emits an event twice, and always ends with exactly
 * one `message-end` or `error` event; stopping the iteration aborts the request. An empty batch is
 * a keep-alive: it restarts the stall timers (see {@link StreamEventBatch}) and is otherwise ignored.
 *
 * When `open` returns a `BatchSource` (what `decodeSseStream` returns), each network chunk's batch is
 * pushed from the body's `data` callback and the caller's `next()` is the only promise per read;
 * any other async iterable is pulled one item per caller demand.
 *
 * @example
 * streamMessage(request, { signal }) {
 *   return streamWithRetries(async function* (attempt, attemptSignal) {
 *     const response = await sendRequest({ url, body: toWire(request), signal: attemptSignal, providerId: 'acme' });
 *     yield* mapAcmeEvents(readServerSentEvents(response.body));
 *   }, { signal, providerId: 'acme' });
 * }
 */
export function streamWithRetries(
  open: OpenStream,
  options: StreamWithRetriesOptions = {},
): AsyncIterableIterator<StreamEvent> {
  return new RetryingStream(open, options);
}
