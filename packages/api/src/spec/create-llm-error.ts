import { LlmError, type LlmErrorOptions } from './llm-error.js';
import type { StreamStallKind } from './llm-error-classes.js';
import {
  AbortedError,
  AuthenticationError,
  ContentFilterError,
  ContextOverflowError,
  NetworkError,
  OverloadedError,
  QuotaExceededError,
  RateLimitError,
  RequestTimeoutError,
  StreamStallError,
} from './llm-error-classes.js';

/** Options of {@link createLlmError}: the base options plus the fields some subclasses carry. */
export interface CreateLlmErrorOptions extends LlmErrorOptions {
  requestedTokens?: number;
  limitTokens?: number;
  stallKind?: StreamStallKind;
  timeoutMs?: number;
}

/**
 * Builds the most specific error class for `reason`, so guards such as `isRateLimitError` hold for
 * every error of that reason whoever created it.
 *
 * @example
 * const error = createLlmError({ reason: 'rate_limit', message: 'Slow down', status: 429, retryAfterMs: 2000 });
 */
export function createLlmError(options: CreateLlmErrorOptions): LlmError {
  const { reason, requestedTokens, limitTokens, stallKind, timeoutMs, ...rest } = options;
  switch (reason) {
    case 'context_overflow':
      return new ContextOverflowError({ ...rest, requestedTokens, limitTokens });
    case 'rate_limit':
      return new RateLimitError(rest);
    case 'overloaded':
      return new OverloadedError(rest);
    case 'quota':
      return new QuotaExceededError(rest);
    case 'auth':
      return new AuthenticationError(rest);
    case 'content_filter':
      return new ContentFilterError(rest);
    case 'network':
      return new NetworkError(rest);
    case 'timeout':
      return new RequestTimeoutError(rest);
    case 'stream_stall':
      return new StreamStallError({ ...rest, stallKind: stallKind ?? 'idle', timeoutMs: timeoutMs ?? 0 });
    case 'aborted':
      return new AbortedError(rest);
    default:
      return new LlmError({ ...rest, reason });
  }
}
