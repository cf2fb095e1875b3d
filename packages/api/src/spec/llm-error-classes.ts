import { redactUrl } from '../shared/redact-secrets.js';
import { hasErrorMarker, isLlmError, LlmError, type LlmErrorSubclassOptions } from './llm-error.js';

const CONTEXT_OVERFLOW_MARKER: unique symbol = Symbol.for('boxagnts.api.error.context_overflow');
const RATE_LIMIT_MARKER: unique symbol = Symbol.for('boxagnts.api.error.rate_limit');
const OVERLOADED_MARKER: unique symbol = Symbol.for('boxagnts.api.error.overloaded');
const QUOTA_MARKER: unique symbol = Symbol.for('boxagnts.api.error.quota');
const AUTHENTICATION_MARKER: unique symbol = Symbol.for('boxagnts.api.error.auth');
const MISSING_API_KEY_MARKER: unique symbol = Symbol.for('boxagnts.api.error.missing_api_key');
const CONTENT_FILTER_MARKER: unique symbol = Symbol.for('boxagnts.api.error.content_filter');
const NETWORK_MARKER: unique symbol = Symbol.for('boxagnts.api.error.network');
const TIMEOUT_MARKER: unique symbol = Symbol.for('boxagnts.api.error.timeout');
const STREAM_STALL_MARKER: unique symbol = Symbol.for('boxagnts.api.error.stream_stall');
const ABORTED_MARKER: unique symbol = Symbol.for('boxagnts.api.error.aborted');
const REDIRECT_MARKER: unique symbol = Symbol.for('boxagnts.api.error.redirect');

function label(providerId: string | undefined): string {
  return providerId === undefined ? 'the provider' : `provider "${providerId}"`;
}

/**
 * The prompt plus the requested output do not fit the model's context window. The loop reacts by
 * compacting the history or lowering `maxOutputTokens`, using the token counts when the vendor gave them.
 */
export class ContextOverflowError extends LlmError {
  readonly [CONTEXT_OVERFLOW_MARKER] = true;
  override name = 'ContextOverflowError';
  /** Tokens the request needed, when the vendor said. */
  readonly requestedTokens: number | undefined;
  /** Tokens the model allows, when the vendor said. */
  readonly limitTokens: number | undefined;

  constructor(options: LlmErrorSubclassOptions & { requestedTokens?: number; limitTokens?: number }) {
    const counts =
      options.requestedTokens !== undefined && options.limitTokens !== undefined
        ? ` (${options.requestedTokens} tokens requested, ${options.limitTokens} allowed)`
        : '';
    super({
      ...options,
      reason: 'context_overflow',
      message:
        options.message ??
        `The request is too long for the model's context window${counts}: compact the history or lower maxOutputTokens.`,
    });
    this.requestedTokens = options.requestedTokens;
    this.limitTokens = options.limitTokens;
  }
}

/** Too many requests or tokens per minute; retried after the server's delay. */
export class RateLimitError extends LlmError {
  readonly [RATE_LIMIT_MARKER] = true;
  override name = 'RateLimitError';
  constructor(options: LlmErrorSubclassOptions) {
    super({
      ...options,
      reason: 'rate_limit',
      message: options.message ?? `Rate limited by ${label(options.providerId)}: lower concurrency or raise the limit.`,
    });
  }
}

/** The vendor is temporarily over capacity (HTTP 503/529); retry later or fall back to another model. */
export class OverloadedError extends LlmError {
  readonly [OVERLOADED_MARKER] = true;
  override name = 'OverloadedError';
  constructor(options: LlmErrorSubclassOptions) {
    super({
      ...options,
      reason: 'overloaded',
      message: options.message ?? `${label(options.providerId)} is overloaded: retry later or use a fallback model.`,
    });
  }
}

/** Credit, billing or a hard quota is exhausted; retrying does not help until it is raised. */
export class QuotaExceededError extends LlmError {
  readonly [QUOTA_MARKER] = true;
  override name = 'QuotaExceededError';
  constructor(options: LlmErrorSubclassOptions) {
    super({
      ...options,
      reason: 'quota',
      message:
        options.message ??
        `Quota or credit exhausted at ${label(options.providerId)}: add credit or raise the limit in its console.`,
    });
  }
}

/** The vendor rejected the credentials. */
export class AuthenticationError extends LlmError {
  readonly [AUTHENTICATION_MARKER] = true;
  override name = 'AuthenticationError';
  constructor(options: LlmErrorSubclassOptions) {
    super({
      ...options,
      reason: 'auth',
      message: options.message ?? `${label(options.providerId)} rejected the API key: check the key for this provider.`,
    });
  }
}

/** No API key was passed and none of the environment variables that may hold it is set. */
export class MissingApiKeyError extends AuthenticationError {
  readonly [MISSING_API_KEY_MARKER] = true;
  override name = 'MissingApiKeyError';
  /** The environment variables that were checked, in order. */
  readonly envVarNames: readonly string[];

  constructor(options: { providerId: string; envVarNames: readonly string[]; optionName?: string }) {
    const option = options.optionName ?? 'apiKey';
    const variables =
      options.envVarNames.length === 0
        ? ''
        : ` or set ${options.envVarNames.length === 1 ? 'the environment variable' : 'one of the environment variables'} ${options.envVarNames.join(', ')}`;
    super({
      providerId: options.providerId,
      isRetryable: false,
      message: `No API key for provider "${options.providerId}": pass the \`${option}\` option${variables}.`,
    });
    this.envVarNames = [...options.envVarNames];
  }
}

/** The vendor's safety system blocked the prompt or the answer. */
export class ContentFilterError extends LlmError {
  readonly [CONTENT_FILTER_MARKER] = true;
  override name = 'ContentFilterError';
  constructor(options: LlmErrorSubclassOptions) {
    super({
      ...options,
      reason: 'content_filter',
      message: options.message ?? `${label(options.providerId)} blocked the content: rephrase the request.`,
    });
  }
}

/** The connection failed or broke (reset, refused, DNS, truncated stream). */
export class NetworkError extends LlmError {
  readonly [NETWORK_MARKER] = true;
  override name = 'NetworkError';
  constructor(options: LlmErrorSubclassOptions) {
    super({
      ...options,
      reason: 'network',
      message:
        options.message ??
        `Network failure talking to ${label(options.providerId)}: check the base URL and connectivity.`,
    });
  }
}

/** A connect, header or body timeout of the transport, or an HTTP 408/504. */
export class RequestTimeoutError extends LlmError {
  readonly [TIMEOUT_MARKER] = true;
  override name = 'RequestTimeoutError';
  constructor(options: LlmErrorSubclassOptions) {
    super({
      ...options,
      reason: 'timeout',
      message: options.message ?? `The request to ${label(options.providerId)} timed out.`,
    });
  }
}

/**
 * Which stall timer fired: before the first event, between two events, or after a stretch of only
 * keep-alives (pings, SSE comments) with no event, longer than `keepAliveTimeoutMs`.
 */
export type StreamStallKind = 'first-byte' | 'idle' | 'keep-alive-only';

/** A stream stopped producing events; the request was aborted (retryable before the first delta). */
export class StreamStallError extends LlmError {
  readonly [STREAM_STALL_MARKER] = true;
  override name = 'StreamStallError';
  readonly stallKind: StreamStallKind;
  readonly timeoutMs: number;

  constructor(options: LlmErrorSubclassOptions & { stallKind: StreamStallKind; timeoutMs: number }) {
    super({
      ...options,
      reason: 'stream_stall',
      message: options.message ?? stallMessage(options.stallKind, options.timeoutMs, options.providerId),
    });
    this.stallKind = options.stallKind;
    this.timeoutMs = options.timeoutMs;
  }
}

function stallMessage(kind: StreamStallKind, timeoutMs: number, providerId: string | undefined): string {
  if (kind === 'keep-alive-only') {
    return `The stream from ${label(providerId)} sent only keep-alives and no event for ${timeoutMs} ms, so the request was aborted; raise the stall option keepAliveTimeoutMs if this model thinks longer.`;
  }
  const what = kind === 'first-byte' ? 'first event' : 'next event';
  const setting = kind === 'first-byte' ? 'firstByteTimeoutMs' : 'idleTimeoutMs';
  return `No ${what} from ${label(providerId)} within ${timeoutMs} ms, so the request was aborted; raise the stall option ${setting} if this model pauses longer.`;
}

/** The caller's abort signal fired; never retried. */
export class AbortedError extends LlmError {
  readonly [ABORTED_MARKER] = true;
  override name = 'AbortedError';
  constructor(options: LlmErrorSubclassOptions) {
    super({ ...options, reason: 'aborted', message: options.message ?? 'The request was aborted by the caller.' });
  }
}

/**
 * The server redirected to another origin. Provider clients never follow such redirects: fetch would
 * forward `x-api-key`-style headers and the request body to the new host.
 */
export class RedirectError extends LlmError {
  readonly [REDIRECT_MARKER] = true;
  override name = 'RedirectError';
  /** Where the server wanted to send the request. */
  readonly location: string;

  constructor(options: LlmErrorSubclassOptions & { location: string }) {
    super({
      ...options,
      reason: 'invalid_request',
      isRetryable: false,
      message:
        options.message ??
        `${label(options.providerId)} redirected to another origin (${redactUrl(options.location)}); cross-origin redirects are not followed because they would leak the API key: set the base URL to the final address if you trust it.`,
    });
    this.location = redactUrl(options.location);
  }
}

/** Whether `value` is a {@link ContextOverflowError} (cross-realm). */
export const isContextOverflowError = (value: unknown): value is ContextOverflowError =>
  isLlmError(value) && hasErrorMarker(value, CONTEXT_OVERFLOW_MARKER);
/** Whether `value` is a {@link RateLimitError} (cross-realm). */
export const isRateLimitError = (value: unknown): value is RateLimitError =>
  isLlmError(value) && hasErrorMarker(value, RATE_LIMIT_MARKER);
/** Whether `value` is an {@link OverloadedError} (cross-realm). */
export const isOverloadedError = (value: unknown): value is OverloadedError =>
  isLlmError(value) && hasErrorMarker(value, OVERLOADED_MARKER);
/** Whether `value` is a {@link QuotaExceededError} (cross-realm). */
export const isQuotaExceededError = (value: unknown): value is QuotaExceededError =>
  isLlmError(value) && hasErrorMarker(value, QUOTA_MARKER);
/** Whether `value` is an {@link AuthenticationError}, including {@link MissingApiKeyError} (cross-realm). */
export const isAuthenticationError = (value: unknown): value is AuthenticationError =>
  isLlmError(value) && hasErrorMarker(value, AUTHENTICATION_MARKER);
/** Whether `value` is a {@link MissingApiKeyError} (cross-realm). */
export const isMissingApiKeyError = (value: unknown): value is MissingApiKeyError =>
  isLlmError(value) && hasErrorMarker(value, MISSING_API_KEY_MARKER);
/** Whether `value` is a {@link ContentFilterError} (cross-realm). */
export const isContentFilterError = (value: unknown): value is ContentFilterError =>
  isLlmError(value) && hasErrorMarker(value, CONTENT_FILTER_MARKER);
/** Whether `value` is a {@link NetworkError} (cross-realm). */
export const isNetworkError = (value: unknown): value is NetworkError =>
  isLlmError(value) && hasErrorMarker(value, NETWORK_MARKER);
/** Whether `value` is a {@link RequestTimeoutError} (cross-realm). */
export const isRequestTimeoutError = (value: unknown): value is RequestTimeoutError =>
  isLlmError(value) && hasErrorMarker(value, TIMEOUT_MARKER);
/** Whether `value` is a {@link StreamStallError} (cross-realm). */
export const isStreamStallError = (value: unknown): value is StreamStallError =>
  isLlmError(value) && hasErrorMarker(value, STREAM_STALL_MARKER);
/** Whether `value` is an {@link AbortedError} (cross-realm). */
export const isAbortedError = (value: unknown): value is AbortedError =>
  isLlmError(value) && hasErrorMarker(value, ABORTED_MARKER);
/** Whether `value` is a {@link RedirectError} (cross-realm). */
export const isRedirectError = (value: unknown): value is RedirectError =>
  isLlmError(value) && hasErrorMarker(value, REDIRECT_MARKER);
