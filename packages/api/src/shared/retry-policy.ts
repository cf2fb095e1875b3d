import type { LlmError } from '../spec/llm-error.js';
import { AbortedError } from '../spec/llm-error-classes.js';
import { abortableSleep, linkAbortController } from './abort.js';
import type { HttpErrorRule } from './classify-http-error.js';
import { toLlmError } from './to-llm-error.js';

/** What a retry callback learns before the wait. */
export interface RetryEvent {
  /** The attempt about to run (1 for the first retry). */
  attempt: number;
  delayMs: number;
  error: LlmError;
}

/** How failed calls are retried. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** Backoff ceiling of the first retry; doubles each time. Default 1 s. */
  initialDelayMs?: number;
  /** Largest backoff of our own. Default 30 s. */
  maxDelayMs?: number;
  /** Longest server-requested wait honoured; a longer `retry-after` fails at once. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Random source in [0, 1) for the jitter (inject for deterministic tests). */
  random?: () => number;
  /** The sleep used between attempts (inject for tests); must reject when the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called before each wait, e.g. to show "retrying in 4 s". */
  onRetry?: (event: RetryEvent) => void;
}

/** The defaults of {@link RetryOptions}. */
export const DEFAULT_RETRY_OPTIONS = {
  maxRetries: 3,
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
} as const;

/** Whether to retry, and after how long. */
export type RetryDecision = { retry: true; delayMs: number } | { retry: false };

/**
 * Decides whether failure number `retriesSoFar + 1` is retried: never for a non-retryable error or
 * past `maxRetries`; after the server's requested wait when it gave one (failing at once when that
 * wait exceeds `maxRetryAfterMs`); otherwise after exponential backoff with full jitter
 * (`random() * min(maxDelayMs, initialDelayMs * 2^retriesSoFar)`).
 */
export function decideRetry(error: LlmError, retriesSoFar: number, options: RetryOptions = {}): RetryDecision {
  const maxRetries = options.maxRetries ?? DEFAULT_RETRY_OPTIONS.maxRetries;
  if (!error.isRetryable || retriesSoFar >= maxRetries) return { retry: false };
  if (error.retryAfterMs !== undefined) {
    const cap = options.maxRetryAfterMs ?? DEFAULT_RETRY_OPTIONS.maxRetryAfterMs;
    return error.retryAfterMs > cap ? { retry: false } : { retry: true, delayMs: error.retryAfterMs };
  }
  const initial = options.initialDelayMs ?? DEFAULT_RETRY_OPTIONS.initialDelayMs;
  const ceiling = Math.min(options.maxDelayMs ?? DEFAULT_RETRY_OPTIONS.maxDelayMs, initial * 2 ** retriesSoFar);
  const random = options.random ?? Math.random;
  return { retry: true, delayMs: Math.floor(random() * ceiling) };
}

/** Options of {@link withRetries}. */
export interface WithRetriesOptions extends RetryOptions {
  signal?: AbortSignal;
  providerId?: string;
  /** Vendor wording for classifying SDK errors thrown by the operation. */
  rules?: readonly HttpErrorRule[];
}

/**
 * Runs `operation` until it succeeds, fails with a non-retryable error, or runs out of retries; what
 * it throws is converted with {@link toLlmError}, so the promise always rejects with an `LlmError`.
 * Each attempt gets its own signal, aborted when the caller's is.
 *
 * @example
 * const response = await withRetries((attempt, signal) => postMessage(request, signal), { signal, providerId: 'anthropic' });
 */
export async function withRetries<T>(
  operation: (attempt: number, signal: AbortSignal) => Promise<T>,
  options: WithRetriesOptions = {},
): Promise<T> {
  const sleep = options.sleep ?? abortableSleep;
  const context = {
    ...(options.providerId === undefined ? {} : { providerId: options.providerId }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.rules === undefined ? {} : { rules: options.rules }),
  };
  for (let attempt = 0; ; attempt += 1) {
    if (options.signal?.aborted === true) {
      throw new AbortedError({
        ...(options.providerId === undefined ? {} : { providerId: options.providerId }),
        cause: options.signal.reason,
      });
    }
    const link = linkAbortController(options.signal);
    let error: LlmError;
    try {
      return await operation(attempt, link.controller.signal);
    } catch (thrown) {
      error = toLlmError(thrown, context);
    } finally {
      link.dispose();
    }
    const decision = decideRetry(error, attempt, options);
    if (!decision.retry) throw error;
    options.onRetry?.({ attempt: attempt + 1, delayMs: decision.delayMs, error });
    try {
      await sleep(decision.delayMs, options.signal);
    } catch (thrown) {
      throw toLlmError(thrown, context);
    }
  }
}
