/** Every reason a store operation can fail, one closed set for SQLite and PostgreSQL. */
export const STORE_ERROR_REASONS = [
  'invalid-input',
  'not-found',
  'conflict',
  'busy',
  'connection-failed',
  'migration-failed',
  'schema-too-new',
  'closed',
  'too-large',
  'database',
] as const;

/** Why a store operation failed; see {@link STORE_ERROR_REASONS}. */
export type StoreErrorReason = (typeof STORE_ERROR_REASONS)[number];

/** Marks every `StoreError` across duplicate package copies, where `instanceof` fails. */
const STORE_ERROR_MARKER: unique symbol = Symbol.for('boxagnts.workspace.store-error');

/** Structured context of a {@link StoreError}. */
export interface StoreErrorOptions {
  reason: StoreErrorReason;
  /** What happened and what to change. */
  message: string;
  /** The 1-based line of a JSONL import that was rejected. */
  line?: number;
  sessionId?: string;
  cause?: unknown;
}

/**
 * The one error type of the workspace store: a closed `reason`, a message that says what to do, and
 * the session or import line it concerns. Test for it with {@link isStoreError}, not `instanceof`.
 */
export class StoreError extends Error {
  readonly [STORE_ERROR_MARKER] = true;
  override name = 'StoreError';
  readonly reason: StoreErrorReason;
  readonly line: number | undefined;
  readonly sessionId: string | undefined;

  constructor(options: StoreErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = options.reason;
    this.line = options.line;
    this.sessionId = options.sessionId;
  }
}

/** Whether `value` is a {@link StoreError} from any copy of this package. */
export function isStoreError(value: unknown): value is StoreError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[STORE_ERROR_MARKER] === true;
}

function errorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : '';
}

/**
 * Turns a driver error (better-sqlite3's `SqliteError`, pg's `DatabaseError`, a socket error) into a
 * {@link StoreError}; a `StoreError` passes through unchanged.
 */
export function toStoreError(error: unknown, doing: string): StoreError {
  if (isStoreError(error)) return error;
  const code = errorCode(error);
  const detail = error instanceof Error ? error.message : String(error);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || code === '40P01' || code === '55P03') {
    return new StoreError({
      reason: 'busy',
      message: `${doing} failed because the database stayed locked by another writer (${detail}); retry, or raise the busy timeout.`,
      cause: error,
    });
  }
  if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505') {
    return new StoreError({
      reason: 'conflict',
      message: `${doing} failed because a row with the same key exists (${detail}); use another id.`,
      cause: error,
    });
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === '3D000' || code === '28P01') {
    return new StoreError({
      reason: 'connection-failed',
      message: `${doing} failed: cannot reach the database (${detail}); check the store URL and that the server runs.`,
      cause: error,
    });
  }
  return new StoreError({ reason: 'database', message: `${doing} failed: ${detail}`, cause: error });
}
