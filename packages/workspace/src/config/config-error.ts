const CONFIG_ERROR_MARKER = Symbol.for('boxagnts.workspace.config-error');

/**
 * Why a configuration, secrets or workspace file was refused: `syntax` (not valid JSON with comments),
 * `schema` (a field has the wrong type, an unknown key, a bad value), `raw-secret` (a key written into
 * the config instead of the secrets file), `missing-env` (a `${env:NAME}` or `{ "env": NAME }` that is
 * not set), `missing-secret` (a `{ "secret": name }` not in the secrets file), `file-mode` (the secrets
 * file is readable by others), `unsafe-link` (the file is a link out of the folder it must stay in,
 * e.g. a `boxagnts.json` or output style linked out of the workspace), `io` (a file could not be
 * read or written).
 */
export type ConfigErrorReason =
  | 'syntax'
  | 'schema'
  | 'raw-secret'
  | 'missing-env'
  | 'missing-secret'
  | 'file-mode'
  | 'unsafe-link'
  | 'io';

/** What a {@link ConfigError} is made from. */
export interface ConfigErrorOptions {
  reason: ConfigErrorReason;
  /** The file concerned (config, secrets, AGENTS.md, output style). */
  file: string;
  /** The field as a dotted path (`agents.build.model`), when one field is at fault. */
  field?: string;
  /** 1-based position in the file, when known. */
  line?: number;
  column?: number;
  /** What is wrong and what to change; the location prefix is added. */
  detail: string;
  cause?: unknown;
}

/**
 * A configuration mistake, reported at once and never papered over with defaults. The message starts
 * with `file:line:column` (or the file alone) and the field, and says what to change. It never holds
 * a secret's value.
 */
export class ConfigError extends Error {
  readonly [CONFIG_ERROR_MARKER] = true;
  override readonly name = 'ConfigError';
  readonly reason: ConfigErrorReason;
  readonly file: string;
  readonly field: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(options: ConfigErrorOptions) {
    const position =
      options.line === undefined ? options.file : `${options.file}:${options.line}:${options.column ?? 1}`;
    const field = options.field === undefined || options.field === '' ? '' : ` ${options.field}:`;
    super(`${position}:${field} ${options.detail}`, options.cause === undefined ? {} : { cause: options.cause });
    this.reason = options.reason;
    this.file = options.file;
    this.field = options.field;
    this.line = options.line;
    this.column = options.column;
  }
}

/** True for a {@link ConfigError}, even one from another copy of this package. */
export function isConfigError(error: unknown): error is ConfigError {
  return typeof error === 'object' && error !== null && CONFIG_ERROR_MARKER in error;
}
