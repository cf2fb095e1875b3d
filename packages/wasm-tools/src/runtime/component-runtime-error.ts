const COMPONENT_RUNTIME_ERROR_MARKER: unique symbol = Symbol.for('boxagnts.wasm-tools.component_runtime_error');

/** Why the component runtime refused a configuration or a component. */
export type ComponentRuntimeErrorReason =
  | 'build-failed'
  | 'invalid-component'
  | 'invalid-manifest'
  | 'invalid-descriptor'
  | 'invalid-options'
  | 'closed'
  /** The package was bundled into an app; its run-time files are missing (mark it external). */
  | 'bundled'
  /** A run-time file of the package is missing (a broken install). */
  | 'missing-file';

/**
 * A component or configuration the runtime cannot use (a build that failed, a manifest with a bad
 * field, a descriptor that is not valid); the message says what to change. Thrown when loading,
 * never from a tool call: calls answer with error results.
 */
export class ComponentRuntimeError extends Error {
  readonly [COMPONENT_RUNTIME_ERROR_MARKER] = true;
  /** The closed reason set, for hosts that branch on it. */
  readonly reason: ComponentRuntimeErrorReason;
  /** The file the error is about, when there is one. */
  readonly file: string | undefined;

  constructor(reason: ComponentRuntimeErrorReason, message: string, options?: { file?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ComponentRuntimeError';
    this.reason = reason;
    this.file = options?.file;
  }
}

/** Whether `value` is a {@link ComponentRuntimeError}, also across two loaded copies of this package. */
export function isComponentRuntimeError(value: unknown): value is ComponentRuntimeError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[COMPONENT_RUNTIME_ERROR_MARKER] === true
  );
}
