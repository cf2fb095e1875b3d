import type { LlmError } from '../spec/llm-error.js';
import { AbortedError, NetworkError } from '../spec/llm-error-classes.js';
import type { StreamEvent } from '../spec/stream-event.js';
import { abortableSleep, linkAbortController } from './abort.js';
import type { HttpErrorRule } from './classify-http-error.js';
import { decideRetry, type RetryOptions } from './retry-policy.js';
import { type StallOptions, withStallTimeouts } from './stall-timeouts.js';
import { toLlmError } from './to-llm-error.js';

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

/** Whether an attempt's item is a keep-alive: an empty batch. */
function isKeepAlive(item: StreamEventBatch): boolean {
  return Array.isArray(item) && item.length === 0;
}

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

/** Events held back until the first content event, so a retried attempt repeats nothing. */
const HELD_EVENT_TYPES: ReadonlySet<StreamEvent['type']> = new Set([
  'message-start',
  'usage',
  'text-start',
  'thinking-start',
  'tool-call-start',
]);

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
  return flattenBatches(attempts(open, options));
}

/**
 * Hands out the events of each batch one at a time. Events already in hand are returned without a
 * trip through a generator, so the caller's `for await` pays one resolved promise per event, and the
 * retry logic below runs once per network chunk.
 */
function flattenBatches(
  source: AsyncGenerator<readonly StreamEvent[], void, undefined>,
): AsyncIterableIterator<StreamEvent> {
  let batch: readonly StreamEvent[] = [];
  let index = 0;
  const iterator: AsyncIterableIterator<StreamEvent> = {
    next(): Promise<IteratorResult<StreamEvent>> {
      if (index < batch.length) return Promise.resolve({ value: batch[index++] as StreamEvent, done: false });
      return source.next().then((result) => {
        if (result.done === true || result.value.length === 0) return { value: undefined, done: true };
        batch = result.value;
        index = 1;
        return { value: batch[0] as StreamEvent, done: false };
      });
    },
    async return(): Promise<IteratorResult<StreamEvent>> {
      batch = [];
      await source.return(undefined);
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/** The retry loop, one output batch per input batch (never empty). */
async function* attempts(
  open: OpenStream,
  options: StreamWithRetriesOptions,
): AsyncGenerator<readonly StreamEvent[], void, undefined> {
  const sleep = options.sleep ?? abortableSleep;
  const provider = options.providerId === undefined ? {} : { providerId: options.providerId };
  const context = {
    ...provider,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.rules === undefined ? {} : { rules: options.rules }),
  };
  const aborted = () => new AbortedError({ ...provider, cause: options.signal?.reason });
  let committed = false;

  for (let attempt = 0; ; attempt += 1) {
    if (options.signal?.aborted === true) {
      yield [{ type: 'error', error: aborted() }];
      return;
    }
    const link = linkAbortController(options.signal);
    const held: StreamEvent[] = [];
    let failure: LlmError | undefined;
    let ended = false;
    let iterator: AsyncIterator<StreamEventBatch> | undefined;
    try {
      // `open` may return the iterable or a promise of it; the stall timers cover both (connect included).
      const source = open(attempt, link.controller.signal);
      const events =
        options.stall === false
          ? withStallTimeouts(source, {
              controller: link.controller,
              firstByteTimeoutMs: 0,
              idleTimeoutMs: 0,
              keepAliveTimeoutMs: 0,
            })
          : withStallTimeouts(source, { ...options.stall, ...provider, controller: link.controller, isKeepAlive });
      iterator = events[Symbol.asyncIterator]();
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) break;
        const item = next.value;
        // A keep-alive (empty batch) only fed the stall timers: it is not content, so it neither
        // ends the retry window nor reaches the caller.
        if (isBatch(item) && item.length === 0) continue;
        const batch: readonly StreamEvent[] = isBatch(item) ? item : [item];
        const out: StreamEvent[] = [];
        for (const event of batch) {
          if (event.type === 'error') {
            failure = event.error;
            break;
          }
          if (!committed) {
            if (HELD_EVENT_TYPES.has(event.type)) {
              held.push(event);
              continue;
            }
            committed = true;
            out.push(...held);
          }
          out.push(event);
          if (event.type === 'message-end') {
            ended = true;
            // Read what is left of the body (normally just its end) in the background, so the
            // keep-alive connection goes back to the pool instead of being cut.
            finishQuietly(iterator, link.controller);
            iterator = undefined;
            yield out;
            return;
          }
        }
        if (out.length > 0) yield out;
        if (failure !== undefined) break;
      }
      failure ??= new NetworkError({
        ...provider,
        message: `The stream from ${options.providerId === undefined ? 'the provider' : `provider "${options.providerId}"`} ended before the message was complete (no message end); the connection was probably cut.`,
      });
    } catch (error) {
      failure = toLlmError(error, context);
    } finally {
      link.dispose();
      if (!ended) link.controller.abort();
      iterator?.return?.()?.catch(() => undefined);
    }
    if (isAborted(options.signal)) failure = aborted();
    const decision = committed ? ({ retry: false } as const) : decideRetry(failure, attempt, options);
    if (!decision.retry) {
      yield [{ type: 'error', error: failure }];
      return;
    }
    options.onRetry?.({ attempt: attempt + 1, delayMs: decision.delayMs, error: failure });
    try {
      await sleep(decision.delayMs, options.signal);
    } catch {
      yield [{ type: 'error', error: aborted() }];
      return;
    }
  }
}

/** How long a finished stream may take to deliver the end of its body before the connection is cut. */
const DRAIN_LIMIT_MS = 2_000;

/** Pull a finished stream to its end without keeping anything; cut it if that takes too long. */
function finishQuietly(iterator: AsyncIterator<StreamEventBatch>, controller: AbortController): void {
  const limit = setTimeout(() => controller.abort(), DRAIN_LIMIT_MS);
  limit.unref?.();
  void (async () => {
    try {
      while ((await iterator.next()).done !== true) {
        // Events after message-end are not part of the message.
      }
    } catch {
      // The message is complete; a failure while reading the rest of the body changes nothing.
    } finally {
      clearTimeout(limit);
    }
  })();
}

function isBatch(item: StreamEventBatch): item is readonly StreamEvent[] {
  return Array.isArray(item);
}

/** Read through a call so TypeScript does not keep the narrowing from before the awaits. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
