const PATH_POLICY_ERROR_MARKER: unique symbol = Symbol.for('boxagnts.wasm-tools.path_policy_error');

/** Why a path policy could not be created. */
export type PathPolicyErrorReason = 'root-missing' | 'root-not-directory' | 'invalid-root' | 'invalid-pattern';

/**
 * A path policy that cannot be built from its options (a bad root or protected pattern); the
 * message says what to change. Thrown at configuration time, never for a refused tool path.
 */
export class PathPolicyError extends Error {
  readonly [PATH_POLICY_ERROR_MARKER] = true;
  /** The closed reason set, for hosts that branch on it. */
  readonly reason: PathPolicyErrorReason;
  /** The root the options named. */
  readonly root: string;

  constructor(reason: PathPolicyErrorReason, root: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PathPolicyError';
    this.reason = reason;
    this.root = root;
  }
}

/** Whether `value` is a {@link PathPolicyError}, also across two loaded copies of this package. */
export function isPathPolicyError(value: unknown): value is PathPolicyError {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PATH_POLICY_ERROR_MARKER] === true
  );
}
