import path from 'node:path';
import { type PlacedPath, placePath } from './path-pattern.js';
import { realRoot, resolveRealPath } from './real-path.js';

/**
 * Every reading of a path subject a rule has to consider: the path as written (placed relative to
 * the root), and where it really leads with symbolic links followed, relative to the root's real
 * path, both with `..` resolved first (what most tools do) and segment by segment after each link
 * (what the kernel does). A path whose links cannot be resolved (a loop) gets an outside reading,
 * so no allow rule and no accept-edits default admits it. Deny and ask rules match when any
 * reading matches; allow rules and accept-edits need every reading inside the root.
 *
 * @example
 * // with <root>/docs_link -> <root>/protected_area
 * placePathCandidates('docs_link/prod.env', root);
 * // [{ inside: true, relative: 'docs_link/prod.env' }, { inside: true, relative: 'protected_area/prod.env' }]
 */
export function placePathCandidates(subject: string, root: unknown): PlacedPath[] {
  const lexical = placePath(subject, root);
  const usableRoot = typeof root === 'string' && root !== '' && !root.includes('\0');
  if (!usableRoot || subject.includes('\0') || subject.startsWith('~')) return [lexical];
  if (path.sep === '/' && subject.includes('\\')) return [lexical];
  const absoluteRoot = path.resolve(root);
  const rootReal = realRoot(absoluteRoot);
  const written = path.isAbsolute(subject) ? subject : `${absoluteRoot}${path.sep}${subject}`;
  const readings: PlacedPath[] = [lexical];
  for (const real of [resolveRealPath(path.resolve(absoluteRoot, subject)), resolveRealPath(written)]) {
    readings.push(real === undefined ? unresolvable(lexical) : placePath(real, rootReal));
  }
  const seen = new Set<string>();
  return readings.filter((reading) => {
    const key = JSON.stringify(reading);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function unresolvable(lexical: PlacedPath): PlacedPath {
  if (!lexical.inside) return lexical;
  const segments = lexical.relative.split('/').filter((segment) => segment !== '');
  return { inside: false, tails: [lexical.relative, ...segments.map((_, index) => segments.slice(index).join('/'))] };
}
