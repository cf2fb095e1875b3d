import { errorResult, type ToolResult, textResult } from '@boxagnts/tools';
import type { ShellRun } from './shell-run.js';

/** What the result says about the call besides the run itself. */
export interface ShellResultContext {
  mode: 'simulated' | 'host';
  timeoutMs: number;
  /** The wait for a shell thread, in ms (for a `busy` outcome). */
  startTimeoutMs: number;
  description?: string;
}

const FAILURE_HINT =
  ' Only files inside the working folder can be written; protected paths (such as .git) are read-only and links cannot be created.';

function outputSections(run: ShellRun): string[] {
  const sections: string[] = [];
  if (run.stdout !== '') sections.push(`stdout:\n${run.stdout.replace(/\n$/, '')}`);
  if (run.stderr !== '') sections.push(`stderr:\n${run.stderr.replace(/\n$/, '')}`);
  return sections;
}

/**
 * Turns a shell run into the tool result the model reads: labelled stdout and stderr, then the
 * exit code. A non-zero exit is a normal result (the model reads the code and the stderr and
 * decides), as in Claude Code; only a timeout, a cancellation or a shell that could not run the
 * command is an error result.
 */
export function formatShellResult(run: ShellRun, context: ShellResultContext): ToolResult {
  const metadata: Record<string, unknown> = {
    mode: context.mode,
    exitCode: run.exitCode,
    outcome: run.outcome,
    durationMs: run.durationMs,
    timeoutMs: context.timeoutMs,
    truncated: run.truncated,
    ...(context.description === undefined ? {} : { description: context.description }),
  };
  const sections = outputSections(run);
  switch (run.outcome) {
    case 'exited': {
      const body = sections.length === 0 ? ['(no output)'] : sections;
      return textResult([...body, `exit code: ${run.exitCode ?? 'unknown'}`].join('\n\n'), metadata);
    }
    case 'timed-out':
      return errorResult(
        [
          ...sections,
          `The command timed out after ${context.timeoutMs} ms and was stopped. Run a shorter command, work in smaller steps, or pass a larger "timeout".`,
        ].join('\n\n'),
        metadata,
      );
    case 'aborted':
      return errorResult([...sections, 'The command was cancelled before it finished.'].join('\n\n'), metadata);
    case 'out-of-memory':
      return errorResult(
        [
          ...sections,
          `The command used more memory than the shell may (${run.failure ?? 'its memory cap'}) and was stopped. Work on smaller inputs or in smaller steps.`,
        ].join('\n\n'),
        { ...metadata, failure: run.failure },
      );
    case 'busy':
      return errorResult(
        `No shell thread could begin the command within ${context.startTimeoutMs / 1000} s (every thread was busy with other commands, or the machine is overloaded); it did not run. Try again later. (The host sets this wait with the tool's startTimeoutMs option.)`,
        metadata,
      );
    case 'failed':
      return errorResult(
        [
          ...sections,
          `The shell stopped the command: ${run.failure ?? 'unknown failure'}.${context.mode === 'simulated' ? FAILURE_HINT : ''}`,
        ].join('\n\n'),
        { ...metadata, failure: run.failure },
      );
  }
}
