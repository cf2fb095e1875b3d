/**
 * How `streamWithRetries` aborts the request of one attempt without an `abort` listener on the
 * attempt's signal. The attempt's `AbortSignal` carries a slot (under a `Symbol.for` key, so two
 * copies of this package agree); `dispatchStream` puts its in-flight request there instead of
 * calling `addEventListener`, and the retry engine aborts that request directly whenever it aborts
 * the attempt's controller. The signal still aborts as before, for anything else that listens.
 *
 * Why not a listener: on Node 20, a per-request `abort` listener (or a closure over the request
 * kept for one) made every stream's objects outlive the stream by a few scavenges: ~15 times more
 * bytes promoted to the old generation per scavenge and 4-7 extra mark-compacts per 2,000 streams
 * (`--trace-gc-nvp`, the api bench's anthropic-long/16k stream), about a tenth of a stream's CPU.
 */
export const ATTEMPT_ABORT: unique symbol = Symbol.for('boxagnts.api.attemptAbort') as never;

/** A request that can be aborted through an {@link AttemptAbortSlot}. */
export interface AbortableRequest {
  abortRequest(reason: unknown): void;
}

/** The request in flight for one attempt, if any. */
export interface AttemptAbortSlot {
  request: AbortableRequest | undefined;
}

type SlottedSignal = AbortSignal & { [ATTEMPT_ABORT]?: AttemptAbortSlot };

/** Gives `signal` (an attempt's own, never the caller's) a slot, and returns it. */
export function attachAttemptAbortSlot(signal: AbortSignal): AttemptAbortSlot {
  const slot: AttemptAbortSlot = { request: undefined };
  (signal as SlottedSignal)[ATTEMPT_ABORT] = slot;
  return slot;
}

/** The slot of an attempt's signal; undefined for any other signal. */
export function attemptAbortSlot(signal: AbortSignal | undefined): AttemptAbortSlot | undefined {
  return signal === undefined ? undefined : (signal as SlottedSignal)[ATTEMPT_ABORT];
}
