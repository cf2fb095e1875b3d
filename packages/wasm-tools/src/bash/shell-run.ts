/**
 * How a shell command ended. `busy`: it never began, because no shell thread was free (or could
 * start) within the tool's `startTimeoutMs`.
 */
export type ShellOutcome = 'exited' | 'timed-out' | 'aborted' | 'failed' | 'out-of-memory' | 'busy';

/** What one shell command produced, with its output already capped. */
export interface ShellRun {
  /** Standard output, head and tail kept within the byte budget. */
  stdout: string;
  /** Standard error, head and tail kept within the byte budget. */
  stderr: string;
  /** The exit code; `null` when the command was stopped before it exited. */
  exitCode: number | null;
  outcome: ShellOutcome;
  /** Whether output was cut to fit the budget. */
  truncated: boolean;
  /** Wall time of the command, in milliseconds. */
  durationMs: number;
  /** For `failed` and `out-of-memory`: why the shell could not run the command. */
  failure?: string;
}
