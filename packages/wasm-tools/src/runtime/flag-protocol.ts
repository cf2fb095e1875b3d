import type { ToolResult } from '@boxagnts/tools';
import { errorResult, textResult } from '@boxagnts/tools';
import { parseRustDebugValue } from './rust-debug-value.js';

/**
 * The BoxAgnts command-tool protocol, input side: JSON input becomes argv, so command tools built
 * for the Rust BoxAgnts run unchanged. argv[0] is the tool name; each key (snake_case) becomes
 * `--kebab-case`; a string is `--key value`; `true` is a bare `--key`; `false`, `null` and
 * missing values are left out; numbers, arrays and objects are passed as JSON text.
 *
 * @example
 * inputToArgv('hello', { user_name: 'Ada', loud: true, times: 2 });
 * // ['hello', '--user-name', 'Ada', '--loud', '--times', '2']
 */
export function inputToArgv(toolName: string, input: Record<string, unknown>): string[] {
  const argv = [toolName];
  for (const [key, value] of Object.entries(input)) {
    if (value === false || value === null || value === undefined) continue;
    const flag = `--${key.replaceAll('_', '-')}`;
    if (value === true) argv.push(flag);
    else if (typeof value === 'string') argv.push(flag, value);
    else argv.push(flag, JSON.stringify(value));
  }
  return argv;
}

/** How a command run ended, as the worker saw it. */
export interface CommandRunReport {
  stdout: string;
  stderr: string;
  /** `ok`: `run` returned ok; `err`: `run` returned err; `exit`: the program called exit(code). */
  status: 'ok' | 'err' | 'exit';
  exitCode?: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * stdout as a value: JSON when it starts with `{`, Rust debug notation of a JSON value (what
 * BoxAgnts' own components print: `Object {"content": String(..), "is_error": Bool(true)}`) when
 * it starts with one of its variant names; undefined for anything else (plain text).
 */
function parseStructuredStdout(stdout: string): { value: unknown } | undefined {
  if (stdout.startsWith('{')) {
    try {
      return { value: JSON.parse(stdout) };
    } catch {
      return undefined;
    }
  }
  if (/^(?:Object|Array|String|Number|Bool|Null)\b/.test(stdout)) {
    const parsed = parseRustDebugValue(stdout);
    return parsed.ok ? { value: parsed.value } : undefined;
  }
  return undefined;
}

/**
 * The protocol's output side: stdout is JSON `{content, is_error | error, metadata}`, the same
 * object in Rust debug notation, or plain text; `is_error: true` or a truthy `error` makes the
 * result an error (a refusal reaches the model as one), as do a non-empty stderr, an `err` from
 * `run` and a non-zero exit.
 */
export function commandOutputToResult(report: CommandRunReport): ToolResult {
  const stdout = report.stdout.trim();
  let text = stdout;
  let isError = false;
  let metadata: Record<string, unknown> | undefined;
  const structured = parseStructuredStdout(stdout);
  const parsed = structured?.value;
  if (isRecord(parsed) && ('content' in parsed || 'error' in parsed || 'is_error' in parsed)) {
    const content = parsed.content;
    text = typeof content === 'string' ? content : content === undefined ? '' : JSON.stringify(content);
    const error = parsed.error;
    if (typeof error === 'string' && error !== '') text = text === '' ? error : `${text}\n${error}`;
    isError = parsed.is_error === true || (error !== undefined && error !== null && error !== false);
    if (isRecord(parsed.metadata)) metadata = parsed.metadata;
  } else if (structured !== undefined && !stdout.startsWith('{')) {
    // Debug notation of something else: its value as text.
    text = typeof parsed === 'string' ? parsed : JSON.stringify(parsed);
  }
  const stderr = report.stderr.trim();
  const failed = report.status === 'err' || (report.status === 'exit' && report.exitCode !== 0);
  if (stderr !== '' || failed) {
    const reason =
      report.status === 'exit' && report.exitCode !== 0
        ? `The command exited with code ${report.exitCode}.`
        : report.status === 'err'
          ? 'The command reported failure.'
          : 'The command wrote to stderr.';
    const parts = [reason, stderr, text].filter((part) => part !== '');
    return errorResult(parts.join('\n'), metadata);
  }
  return isError ? errorResult(text, metadata) : textResult(text, metadata);
}
