/** Marks every `CliError` across duplicate package copies, where `instanceof` fails. */
const CLI_ERROR_MARKER: unique symbol = Symbol.for('boxagnts.gateway.cli-error');

/**
 * A command of the `boxagnts` bin was given something it cannot act on (a folder without a workspace,
 * an unknown provider, a raw key for the config). The message says what to change; the bin prints it
 * without a stack trace and exits with code 1.
 */
export class CliError extends Error {
  readonly [CLI_ERROR_MARKER] = true;
  override name = 'CliError';
}

/** Whether a value is a {@link CliError}. */
export function isCliError(value: unknown): value is CliError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [CLI_ERROR_MARKER]?: unknown })[CLI_ERROR_MARKER] === true
  );
}
