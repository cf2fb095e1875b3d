const MARKER = Symbol.for('boxagnts.wasm-tools.fs-tools-error');

/** Why the file tools could not be set up. */
export type FsToolsErrorReason = 'guest-missing' | 'bundler-missing' | 'build-failed' | 'component-mismatch';

/** Setting up the sandboxed file tools failed; the message says what to change. */
export class FsToolsError extends Error {
  readonly reason: FsToolsErrorReason;
  readonly [MARKER] = true;

  constructor(reason: FsToolsErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FsToolsError';
    this.reason = reason;
  }
}

/** Whether `value` is an {@link FsToolsError} (works across duplicate copies of the package). */
export function isFsToolsError(value: unknown): value is FsToolsError {
  return typeof value === 'object' && value !== null && (value as { [MARKER]?: unknown })[MARKER] === true;
}
