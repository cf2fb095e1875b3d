import { errorResult, type ToolResult, textResult } from '@boxagnts/tools';
import type { JsRun } from './quickjs-engine.js';

function labelled(label: string, text: string): string {
  return text.includes('\n') ? `${label}:\n${text}` : `${label}: ${text}`;
}

/**
 * Turns an evaluation into the result the model reads: the console output (if any), then the
 * result, or the error with its first stack lines. Errors, timeouts, aborts and exhausted limits
 * are error results; the console output before them is kept.
 */
export function formatJsResult(run: JsRun, timeoutMs: number, startTimeoutMs: number): ToolResult {
  const metadata: Record<string, unknown> = {
    outcome: run.outcome,
    durationMs: run.durationMs,
    truncated: run.truncated,
    recreated: run.recreated,
    ...(run.result === undefined ? {} : { result: run.result }),
  };
  const consoleText = run.console.replace(/\n$/, '');
  const sections = consoleText === '' ? [] : [`console:\n${consoleText}`];
  switch (run.outcome) {
    case 'ok': {
      const hideUndefined = run.result === 'undefined' && sections.length > 0;
      const body = hideUndefined ? sections : [...sections, labelled('result', run.result ?? 'undefined')];
      return textResult(body.join('\n\n'), metadata);
    }
    case 'error':
      return errorResult([...sections, labelled('error', run.error ?? 'unknown error')].join('\n\n'), metadata);
    case 'timed-out':
      return errorResult(
        [
          ...sections,
          `error: the code ran longer than ${timeoutMs} ms and was stopped. Look for an endless loop, or do less work per call.`,
        ].join('\n\n'),
        metadata,
      );
    case 'aborted':
      return errorResult([...sections, 'error: the call was cancelled.'].join('\n\n'), metadata);
    case 'out-of-memory':
      return errorResult(
        [...sections, 'error: out of memory; the code used more memory than allowed. Work on smaller data.'].join(
          '\n\n',
        ),
        metadata,
      );
    case 'busy':
      return errorResult(
        `error: no JavaScript thread could begin the call within ${startTimeoutMs / 1000} s (every thread was busy with other calls, or the machine is overloaded); the code did not run. Try again later. (The host sets this wait with the tool's startTimeoutMs option.)`,
        metadata,
      );
    case 'stack-overflow':
      return errorResult(
        [...sections, 'error: stack overflow (recursion too deep). Use a loop or recurse less deeply.'].join('\n\n'),
        metadata,
      );
  }
}
