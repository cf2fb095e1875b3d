import path from 'node:path';
import picomatch from 'picomatch';

/** A call's path subject, placed relative to the root. */
export type PlacedPath = { inside: true; relative: string } | { inside: false; tails: string[] };

/** Tests a placed path against a path pattern. */
export type PathMatcher = (placed: PlacedPath) => boolean;

/**
 * Compiles a path pattern: a glob relative to the root (`src/**`, `*.md`, `**\/*.test.ts`) matched
 * with picomatch (`dot: true`, no `!` negation). A leading `/` or `./` also means the root; a
 * trailing `/` means everything below. `strict` matchers (allow rules) never match a path outside
 * the root and compare case-sensitively; broad ones (deny and ask) compare case-insensitively and
 * match a path outside the root when the pattern matches any trailing run of its segments.
 *
 * @example
 * compilePathPattern('src/**', 'strict')(placePath('src/a.ts', '/repo')); // true
 */
export function compilePathPattern(pattern: string, strength: 'strict' | 'broad'): PathMatcher {
  let normalized = pattern.trim().replace(/^(?:\.?\/)+/, '');
  if (normalized === '' || normalized === '.') normalized = '**';
  if (normalized.endsWith('/')) normalized += '**';
  const isMatch = picomatch(normalized, {
    dot: true,
    nonegate: true,
    windows: false,
    nocase: strength === 'broad',
  });
  const matchesRoot = normalized === '**';
  return (placed) => {
    if (placed.inside) return placed.relative === '' ? matchesRoot : isMatch(placed.relative);
    return strength === 'broad' && placed.tails.some((tail) => isMatch(tail));
  };
}

/**
 * Places a path subject relative to the root: absolute paths inside the root become relative,
 * `./` and `a/../` are resolved. Anything that leaves the root, starts with `~`, contains a
 * backslash or a NUL, or comes without a usable root counts as outside (the trailing segments are
 * kept so deny rules can still recognise it).
 */
export function placePath(subject: string, root: unknown): PlacedPath {
  const backslashIsSeparator = path.sep === '\\';
  const usableRoot = typeof root === 'string' && root !== '' && !root.includes('\0');
  const unsafe =
    !usableRoot ||
    (!backslashIsSeparator && subject.includes('\\')) ||
    subject.includes('\0') ||
    subject.startsWith('~');
  const separated = backslashIsSeparator ? subject : subject.replaceAll('\\', '/');
  const cleaned = separated.replaceAll('\0', '');
  const absoluteRoot = path.resolve(usableRoot ? root : path.sep);
  const absolute = path.resolve(absoluteRoot, cleaned.startsWith('~') ? path.join(path.sep, cleaned) : cleaned);
  const relative = toPosix(path.relative(absoluteRoot, absolute));
  const escapes = relative === '..' || relative.startsWith('../') || path.isAbsolute(relative);
  if (!unsafe && !escapes) return { inside: true, relative };
  const segments = toPosix(absolute)
    .split('/')
    .filter((segment) => segment !== '');
  const tails = segments.map((_, index) => segments.slice(index).join('/'));
  if (!escapes && relative !== '') tails.unshift(relative);
  return { inside: false, tails: [...new Set(tails)] };
}

function toPosix(value: string): string {
  return value.split(path.sep).join('/');
}
