/**
 * One path policy for every sandboxed tool: paths stay inside the root (after resolving `..`,
 * percent-encoding and symlinks), and protected paths inside it are never written.
 */
export interface PathPolicyOptions {
  /** The working root (made absolute and real-pathed once). */
  root: string;
  /**
   * Paths relative to the root that no tool may write (create, change, delete, rename into or
   * out of), whether or not they exist; glob patterns allowed. Default: {@link DEFAULT_PROTECTED_PATHS}.
   */
  protectedPaths?: readonly string[];
  /** Paths no tool may read or write (glob patterns). Default: {@link DEFAULT_SECRET_PATHS}. */
  secretPaths?: readonly string[];
}

export type PathAccess = 'read' | 'write';

/** A path the policy accepted. */
export interface ResolvedPath {
  /** Absolute host path, symlinks resolved as far as the path exists. */
  absolute: string;
  /** Relative to the root, `/`-separated; `.` for the root itself. */
  relative: string;
  /** Whether something exists there. */
  exists: boolean;
}

export type PathCheck = { ok: true; path: ResolvedPath } | { ok: false; error: string; code: PathRefusal };

export type PathRefusal = 'outside-root' | 'protected' | 'hard-link' | 'invalid';
