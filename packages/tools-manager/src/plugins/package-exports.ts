/** A failed target inside an `exports` array: Node moves on to the next fallback. */
const INVALID = Symbol('invalid-target');
type TargetResult = string | null | undefined | typeof INVALID;

/** Segments Node refuses in an `exports` target or pattern match (they could leave the package). */
const FORBIDDEN_SEGMENT = /(^|[\\/])(\.\.?|node_modules)([\\/]|$)/i;

function isConditionalSugar(exports: unknown): boolean {
  if (typeof exports === 'string' || Array.isArray(exports)) return true;
  if (typeof exports !== 'object' || exports === null) return false;
  return !Object.keys(exports).some((key) => key.startsWith('.'));
}

function resolveTarget(
  target: unknown,
  patternMatch: string | undefined,
  conditions: ReadonlySet<string>,
): TargetResult {
  if (target === null) return null;
  if (typeof target === 'string') {
    if (!target.startsWith('./') || FORBIDDEN_SEGMENT.test(target.slice(2))) return INVALID;
    if (patternMatch === undefined) return target;
    if (FORBIDDEN_SEGMENT.test(patternMatch)) return INVALID;
    return target.replaceAll('*', patternMatch);
  }
  if (Array.isArray(target)) {
    let last: TargetResult = INVALID;
    for (const item of target) {
      const resolved = resolveTarget(item, patternMatch, conditions);
      if (resolved === INVALID || resolved === undefined) {
        last = resolved;
        continue;
      }
      return resolved;
    }
    return last;
  }
  if (typeof target === 'object') {
    for (const [condition, value] of Object.entries(target as Record<string, unknown>)) {
      if (condition !== 'default' && !conditions.has(condition)) continue;
      const resolved = resolveTarget(value, patternMatch, conditions);
      if (resolved !== undefined) return resolved;
    }
    return undefined;
  }
  return INVALID;
}

/** Node's order for pattern keys: the longest text before `*` wins, then the longest key. */
function comparePatternKeys(a: string, b: string): number {
  const prefixA = a.indexOf('*');
  const prefixB = b.indexOf('*');
  if (prefixA !== prefixB) return prefixB - prefixA;
  return b.length - a.length;
}

/**
 * Resolves a subpath (`.` or `./name`) through a package.json `exports` field the way Node's ESM
 * loader does (exact keys, `*` patterns, nested conditions, fallback arrays), for the given
 * conditions (`default` always applies). Returns the target relative to the package root
 * (`./dist/index.js`), or null when the package does not export that subpath.
 *
 * @see https://nodejs.org/api/packages.html#subpath-exports
 */
export function resolvePackageExports(
  exports: unknown,
  subpath: string,
  conditions: ReadonlySet<string>,
): string | null {
  if (isConditionalSugar(exports)) {
    if (subpath !== '.') return null;
    const resolved = resolveTarget(exports, undefined, conditions);
    return typeof resolved === 'string' ? resolved : null;
  }
  if (typeof exports !== 'object' || exports === null) return null;
  const map = exports as Record<string, unknown>;
  if (Object.hasOwn(map, subpath) && !subpath.includes('*')) {
    const resolved = resolveTarget(map[subpath], undefined, conditions);
    return typeof resolved === 'string' ? resolved : null;
  }
  const patterns = Object.keys(map)
    .filter((key) => key.split('*').length === 2)
    .sort(comparePatternKeys);
  for (const key of patterns) {
    const [prefix = '', suffix = ''] = key.split('*');
    if (!subpath.startsWith(prefix) || subpath === prefix) continue;
    if (suffix !== '' && (!subpath.endsWith(suffix) || subpath.length < key.length)) continue;
    const patternMatch = subpath.slice(prefix.length, subpath.length - suffix.length);
    const resolved = resolveTarget(map[key], patternMatch, conditions);
    return typeof resolved === 'string' ? resolved : null;
  }
  return null;
}

/** The subpath keys a package's `exports` offers, for error messages (`.` for the sugar forms). */
export function exportedSubpaths(exports: unknown): string[] {
  if (isConditionalSugar(exports)) return ['.'];
  if (typeof exports !== 'object' || exports === null) return [];
  return Object.keys(exports);
}
