// Shared by the packages' benchmarks (api, query): the pieces of command-line parsing they have in common.

/** A bad command line; the message says what to change. */
export class BenchUsageError extends Error {
  override name = 'BenchUsageError';
}

/** Values of a repeatable option, each possibly comma-separated, trimmed, empty ones dropped. */
export function list(values: readonly string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
}

/** A whole-number option ≥ 1 (`fallback` when absent); anything else is a {@link BenchUsageError}. */
export function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) {
    throw new BenchUsageError(`--${name} must be a whole number ≥ 1, not "${value}"`);
  }
  return number;
}
