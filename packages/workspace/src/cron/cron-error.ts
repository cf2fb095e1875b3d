/** Every reason a cron job operation is refused. */
export const CRON_ERROR_REASONS = [
  'invalid-expression',
  'unknown-timezone',
  'never-fires',
  'invalid-job',
  'not-found',
  'conflict',
] as const;

/** Why a cron job operation was refused; see {@link CRON_ERROR_REASONS}. */
export type CronErrorReason = (typeof CRON_ERROR_REASONS)[number];

const CRON_ERROR_MARKER: unique symbol = Symbol.for('boxagnts.workspace.cron-error');

/** Structured context of a {@link CronError}. */
export interface CronErrorOptions {
  reason: CronErrorReason;
  /** What is wrong and what to change. */
  message: string;
  /** The job field at fault (`cron`, `timezone`, `name`, ...). */
  field?: string;
  cause?: unknown;
}

/**
 * A refused cron job operation: a bad expression, an unknown time zone, a schedule that never fires,
 * a bad field, an unknown job or a name taken. Test for it with {@link isCronError}.
 */
export class CronError extends Error {
  readonly [CRON_ERROR_MARKER] = true;
  override name = 'CronError';
  readonly reason: CronErrorReason;
  readonly field: string | undefined;

  constructor(options: CronErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = options.reason;
    this.field = options.field;
  }
}

/** Whether `value` is a {@link CronError} from any copy of this package. */
export function isCronError(value: unknown): value is CronError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CRON_ERROR_MARKER] === true;
}
