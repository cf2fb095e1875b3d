import type { StreamEvent } from '../spec/stream-event.js';

/**
 * Where a push source delivers an attempt's events: one call per network chunk, straight from the
 * socket's `data` callback, so nothing between the socket and the caller's pull awaits per read.
 */
export interface BatchSink {
  /** The events one network chunk produced; an empty array is a keep-alive (see `StreamEventBatch`). */
  batch(events: readonly StreamEvent[]): void;
  /** The body ended (or the decoder stopped reading) without a throw. */
  end(): void;
  /** The body or the decoder failed; nothing else is delivered. */
  fail(error: unknown): void;
}

/** Flow control of a running push source. */
export interface BatchSourceControl {
  /** Stop delivering until `resume()` (backpressure: the caller is behind). */
  pause(): void;
  resume(): void;
  /** Stop for good and release the body (the connection is dropped unless it had ended). */
  cancel(): void;
}

/** The marker of a {@link BatchSource}: a `Symbol.for` key, so two copies of this package agree. */
export const START_BATCHES: unique symbol = Symbol.for('boxagnts.api.startBatches') as never;

/**
 * A stream of event batches that can push them instead of being pulled: `streamWithRetries`
 * calls `[START_BATCHES](sink)` once per attempt and no async iterator runs per network read.
 * Every batch source is also an ordinary async iterable of batches, for other callers.
 */
export interface BatchSource extends AsyncIterable<readonly StreamEvent[]> {
  [START_BATCHES](sink: BatchSink): BatchSourceControl;
}

/** Whether `value` can push its batches (see {@link BatchSource}). */
export function isBatchSource(value: unknown): value is BatchSource {
  return (
    typeof value === 'object' && value !== null && typeof (value as Partial<BatchSource>)[START_BATCHES] === 'function'
  );
}
