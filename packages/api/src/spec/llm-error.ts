import { redactDeep } from '../shared/redact-deep.js';
import { redactSecrets, redactUrl } from '../shared/redact-secrets.js';
import { rememberedSecrets } from '../shared/secret-registry.js';
/** Every reason an LLM call can fail, one closed set for all vendors. */
export const LLM_ERROR_REASONS = [
  'rate_limit',
  'overloaded',
  'quota',
  'auth',
  'permission',
  'not_found',
  'invalid_request',
  'context_overflow',
  'content_filter',
  'server',
  'network',
  'timeout',
  'stream_stall',
  'aborted',
  'unknown',
] as const;

/** Why an LLM call failed; see {@link LLM_ERROR_REASONS}. */
export type LlmErrorReason = (typeof LLM_ERROR_REASONS)[number];

const RETRYABLE_REASONS: ReadonlySet<LlmErrorReason> = new Set<LlmErrorReason>([
  'rate_limit',
  'overloaded',
  'server',
  'network',
  'timeout',
  'stream_stall',
]);

/** Whether a failure of this reason is worth retrying when nothing says otherwise (transient failures are). */
export function isRetryableReason(reason: LlmErrorReason): boolean {
  return RETRYABLE_REASONS.has(reason);
}

/**
 * Marks every `LlmError` across realms and duplicate package copies, where `instanceof` fails.
 * `Symbol.for` returns the same symbol in every copy of this package.
 */
const LLM_ERROR_MARKER: unique symbol = Symbol.for('boxagnts.api.error');

/** Structured context of an {@link LlmError}. */
export interface LlmErrorOptions {
  reason: LlmErrorReason;
  /** What happened and what to change; never include secrets. */
  message: string;
  /** Defaults to {@link isRetryableReason} of `reason`; a vendor's `x-should-retry` header may override it. */
  isRetryable?: boolean;
  /** HTTP status, when there was a response. */
  status?: number;
  /** How long the server asked the client to wait before retrying. */
  retryAfterMs?: number;
  providerId?: string;
  /** The raw response body (parsed JSON when it was JSON, else text). */
  body?: unknown;
  url?: string;
  cause?: unknown;
  /**
   * Credentials to mask in every field (message, body, url, cause chain), besides every key this
   * process has sent to a provider and every credential shape `redactSecrets` knows.
   */
  secrets?: readonly string[];
}

/** Options of the `LlmError` subclasses: the reason is fixed and the message has a default. */
export type LlmErrorSubclassOptions = Omit<LlmErrorOptions, 'reason' | 'message'> & { message?: string };

/**
 * The one error type of `@boxagnts/api`: a closed `reason`, whether a retry may help, and the HTTP
 * context. Test for it with {@link isLlmError}, not `instanceof`.
 */
export class LlmError extends Error {
  readonly [LLM_ERROR_MARKER] = true;
  override name = 'LlmError';
  readonly reason: LlmErrorReason;
  readonly isRetryable: boolean;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly providerId: string | undefined;
  readonly body: unknown;
  readonly url: string | undefined;

  /**
   * Every string of the error is masked as it is built (message, stack, `body`, `url`, the whole
   * `cause` chain), so no way of printing it (`util.inspect`, JSON, a logger) shows a key.
   */
  constructor(options: LlmErrorOptions) {
    super(
      redactSecrets(options.message, secretsOf(options)),
      options.cause === undefined ? undefined : { cause: redactDeep(options.cause, secretsOf(options)) },
    );
    const secrets = secretsOf(options);
    this.reason = options.reason;
    this.isRetryable = options.isRetryable ?? isRetryableReason(options.reason);
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.providerId = options.providerId;
    this.body = options.body === undefined ? undefined : redactDeep(options.body, secrets);
    this.url = options.url === undefined ? undefined : redactSecrets(redactUrl(options.url), secrets);
  }

  /** A plain summary for logs and persisted run records (the raw body is left out: it can be large). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      reason: this.reason,
      message: this.message,
      isRetryable: this.isRetryable,
      status: this.status,
      retryAfterMs: this.retryAfterMs,
      providerId: this.providerId,
      url: this.url,
    };
  }
}

function secretsOf(options: LlmErrorOptions): string[] {
  const remembered = rememberedSecrets();
  return options.secrets === undefined || options.secrets.length === 0
    ? remembered
    : [...options.secrets, ...remembered];
}

/** Whether `value` is an {@link LlmError} from any copy of this package. */
export function isLlmError(value: unknown): value is LlmError {
  return hasErrorMarker(value, LLM_ERROR_MARKER);
}

/** Whether `value` carries the given `Symbol.for` marker set to `true` (used by every error guard). */
export function hasErrorMarker(value: unknown, marker: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
}
