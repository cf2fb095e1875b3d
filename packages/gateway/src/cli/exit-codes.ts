import type { QueryStopReason } from '@boxagnts/query';

/** Exit codes of `boxagnts run`, by how the run ended. */
export const EXIT_CODES = {
  /** The agent finished (`end_turn`). */
  ok: 0,
  /** The run failed (`error`) or the command was used wrongly. */
  error: 1,
  /** A limit stopped it: max turns, budget, context overflow, tool loop. */
  limit: 2,
  /** The model refused. */
  refusal: 3,
  /** Cancelled (Ctrl-C). */
  cancelled: 130,
} as const;

/** The exit code for an outcome reason; an unknown future reason counts as a limit. */
export function exitCodeFor(reason: QueryStopReason | string): number {
  switch (reason) {
    case 'end_turn':
      return EXIT_CODES.ok;
    case 'error':
      return EXIT_CODES.error;
    case 'refusal':
      return EXIT_CODES.refusal;
    case 'cancelled':
      return EXIT_CODES.cancelled;
    default:
      return EXIT_CODES.limit;
  }
}
