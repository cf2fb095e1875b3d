import picomatch from 'picomatch';

/**
 * Files the host reads as instructions, protected by default for every tool (file tools, `bash`,
 * components): `AGENTS.md` at any level, skills folders (`.agents/skills`, a workspace's
 * `skills`), the workspace config (`boxagnts.json`, `boxagnts.jsonc`), output styles
 * (`output-styles`) and hook scripts (`hooks`). A sandboxed tool that could change them would plant
 * instructions or host code for later sessions. A host that wants tools to edit them opts in by
 * passing `protectedPaths` without them (see the README).
 */
export const DEFAULT_INSTRUCTION_PATHS: readonly string[] = Object.freeze([
  '**/AGENTS.md',
  '.agents/skills',
  'skills',
  'boxagnts.json',
  'boxagnts.jsonc',
  'output-styles',
  'hooks',
]);

/**
 * Paths inside the root that no tool may write, by default: `.git` (the folder and everything in
 * it: hooks and config there run code on the next git command), `.boxagnts/config.json` and
 * `.boxagnts/secrets.json` (the workspace's settings and keys), the workspace's SQLite files
 * (`.boxagnts/*.db` with their `-wal`, `-shm` and `-journal` companions), and the instruction files
 * of {@link DEFAULT_INSTRUCTION_PATHS}. Reading them is allowed, except the secret files below.
 */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = Object.freeze([
  '.git',
  '.boxagnts/config.json',
  '.boxagnts/secrets.json',
  '.boxagnts/*.db',
  '.boxagnts/*.db-wal',
  '.boxagnts/*.db-shm',
  '.boxagnts/*.db-journal',
  ...DEFAULT_INSTRUCTION_PATHS,
]);

/**
 * Paths inside the root that no tool may read or write, by default: the workspace's secrets file
 * (API keys and gateway tokens). A host that uses a workspace folder itself as the root keeps its
 * keys away from the model this way.
 */
export const DEFAULT_SECRET_PATHS: readonly string[] = Object.freeze(['.boxagnts/secrets.json']);

// Case-insensitive everywhere: on macOS and Windows `.GIT/config` is `.git/config`; on Linux the
// extra refusals (a file that only differs in case) are harmless. Unicode is compared in NFC so
// macOS's decomposed names match too.
const MATCH_OPTIONS = { dot: true, nocase: true } as const;

/** Compiled protected patterns: whole-path matchers and per-segment matchers. */
export interface ProtectedMatcher {
  /** Whether `relative` (root-relative, `/`-separated) is protected or lies inside a protected path. */
  isProtected(relative: string): boolean;
  /**
   * Whether writing `relative` as a whole (delete, rename, replace a folder) would touch a
   * protected path, judged by the names alone. Patterns with a `**` segment (`**\/AGENTS.md`) can
   * match below any folder, so they are left to {@link ProtectedMatcher.hasFloating} callers, which
   * look at what the folder really holds.
   */
  containsProtected(relative: string): boolean;
  /** Whether some pattern has a `**` segment (a folder's contents must be looked at). */
  readonly hasFloating: boolean;
}

/** Strips `./` and slashes at the ends so patterns compare with root-relative paths. */
export function normalisePattern(pattern: string): string {
  return pattern
    .normalize('NFC')
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+|\/+$/g, '');
}

function segmentsOf(relative: string): string[] {
  if (relative === '.' || relative === '') return [];
  return relative.normalize('NFC').split('/');
}

/** Compiles `patterns` (globs relative to the root) into a {@link ProtectedMatcher}. */
export function compileProtectedPaths(patterns: readonly string[]): ProtectedMatcher {
  const normalised = patterns.map(normalisePattern).filter((pattern) => pattern !== '');
  const whole = normalised.map((pattern) => picomatch(pattern, MATCH_OPTIONS));
  const isFloating = (pattern: string) => pattern.split('/').includes('**');
  const perSegment = normalised
    .filter((pattern) => !isFloating(pattern))
    .map((pattern) => pattern.split('/').map((part) => picomatch(part, MATCH_OPTIONS)));

  function matchesExactly(relative: string): boolean {
    return whole.some((matcher) => matcher(relative));
  }

  return {
    hasFloating: normalised.some(isFloating),
    isProtected(relative) {
      const segments = segmentsOf(relative);
      // The path itself or any ancestor: `.git/objects/ab` is inside `.git`.
      for (let length = 1; length <= segments.length; length += 1) {
        if (matchesExactly(segments.slice(0, length).join('/'))) return true;
      }
      return false;
    },
    containsProtected(relative) {
      if (this.isProtected(relative)) return true;
      const segments = segmentsOf(relative);
      return perSegment.some((parts) => {
        for (const [index, segment] of segments.entries()) {
          const part = parts[index];
          if (part === undefined) return false;
          if (!part(segment)) return false;
        }
        return parts.length > segments.length;
      });
    },
  };
}
