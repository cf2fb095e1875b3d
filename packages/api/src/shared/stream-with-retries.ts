import type { StreamEvent } from '../spec/stream-event.js';
import type { HttpErrorRule } from './classify-http-error.js';
import type { RetryOptions } from './retry-policy.js';
import { RetryingStream } from './retrying-stream.js';
import type { StallOptions } from './stall-timeouts.js';

/**
 * What one attempt yields: single events, or arrays of the events decoded from one network chunk.
 * Batches are the fast path: the per-item async hop (and the stall bookkeeping) is paid once per
 * network chunk instead of once per event, while the caller still receives one event at a time.
 * An empty array is a keep-alive: yield one for a network chunk that completed at least one frame
 * (an SSE comment, a `ping` event, any event that maps to nothing) but produced no event. It shows
 * the server is alive, which restarts the first-event and idle stall timers (the keep-alive-only
 * timer still bounds a stream of nothing else); the caller never sees it.
 */
export type StreamEventBatch = StreamEvent | readonly StreamEvent[];

/** The keep-alive batch adapters yield (shared and frozen, so a keep-alive allocates nothing). */
export const KEEP_ALIVE: readonly StreamEvent[] = Object.freeze([]);

/**
 * Opens one attempt of a stream. `signal` is aborted when the caller aborts or a stall timer fires;
 * pass it to the HTTP request. The iterable may throw or yield an `error` event; both are handled.
 */
export type OpenStream = (
  attempt: number,
  signal: AbortSignal,
) => AsyncIterable<StreamEventBatch> | Promise<AsyncIterable<StreamEventBatch>>;

/** Options of {@link streamWithRetries}. */
export interface StreamWithRetriesOptions extends RetryOptions {
  signal?: AbortSignal;
  providerId?: string;
  /** Stall timers per attempt, or `false` to disable them. */
  stall?: StallOptions | false;
  /** Vendor wording for classifying SDK errors thrown by `open`. */
  rules?: readonly HttpErrorRule[];
}

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
