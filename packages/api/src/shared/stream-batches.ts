// The shapes streamWithRetries and its engine (retrying-stream.ts) share, in a file of their own so neither imports the other.
import type { StreamEvent } from '../spec/stream-event.js';
import type { HttpErrorRule } from './classify-http-error.js';
import type { RetryOptions } from './retry-policy.js';
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
