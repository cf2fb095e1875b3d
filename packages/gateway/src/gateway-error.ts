const MARKER = Symbol.for('@boxagnts/gateway/GatewayError');

/** Why the gateway refused or failed; each maps to one HTTP status. */
export const GATEWAY_ERROR_REASONS = [
  'invalid-request',
  'unauthorized',
  'forbidden',
  'not-found',
  'conflict',
  'payload-too-large',
  'rate-limited',
  'configuration',
  'internal',
] as const;

/** One of {@link GATEWAY_ERROR_REASONS}. */
export type GatewayErrorReason = (typeof GATEWAY_ERROR_REASONS)[number];

const STATUS: Record<GatewayErrorReason, number> = {
  'invalid-request': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'payload-too-large': 413,
  'rate-limited': 429,
  configuration: 500,
  internal: 500,
};

/** Options of {@link GatewayError}. */
export interface GatewayErrorOptions {
  reason: GatewayErrorReason;
  /** What went wrong and what to change, in words a user can act on. Never holds a secret. */
  message: string;
  /** Field-level problems of a request body (`path` -> message). */
  issues?: readonly { path: string; message: string }[];
  /** Seconds to wait before retrying (rate limits). */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/**
 * The one error class of the gateway: a closed `reason`, the HTTP status it maps to, and a message
 * that says what to change. Routes answer it as `{ error: { reason, message, issues? } }`.
 */
export class GatewayError extends Error {
  readonly reason: GatewayErrorReason;
  readonly status: number;
  readonly issues: readonly { path: string; message: string }[];
  readonly retryAfterSeconds: number | undefined;
  readonly [MARKER] = true;

  constructor(options: GatewayErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.reason = options.reason;
    this.status = STATUS[options.reason];
    this.issues = options.issues ?? [];
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Whether `value` is a {@link GatewayError}, also across copies of the package. */
export function isGatewayError(value: unknown): value is GatewayError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}
