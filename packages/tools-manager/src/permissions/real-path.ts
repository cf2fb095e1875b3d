import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** Most symbolic links followed while resolving one path (Linux's own limit is 40). */
export const MAX_FOLLOWED_LINKS = 40;
/** Longest path resolved, in characters (Linux's PATH_MAX): longer ones the kernel refuses anyway. */
export const MAX_RESOLVED_PATH_LENGTH = 4096;

/**
 * Where a path really leads: every symbolic link along it followed, segment by segment, the way
 * the kernel would, even when the link dangles or the path's tail does not exist yet (the longest
 * existing prefix is resolved and the rest appended as written). `..` after a link leaves the link's
 * target, not the link's folder. Returns undefined for a link loop, more than
 * {@link MAX_FOLLOWED_LINKS} links or a path longer than {@link MAX_RESOLVED_PATH_LENGTH}, so
 * callers can fail closed (and a hostile path cannot cost a system call per segment without end).
 *
 * @example
 * // with /repo/src/link -> /etc
 * resolveRealPath('/repo/src/link/passwd'); // '/etc/passwd'
 */
export function resolveRealPath(absolute: string): string | undefined {
  if (!path.isAbsolute(absolute) || absolute.includes('\0') || absolute.length > MAX_RESOLVED_PATH_LENGTH) {
    return undefined;
  }
  let resolved = path.parse(absolute).root;
  const pending = segmentsOf(absolute);
  let followed = 0;
  let missing = false;
  while (pending.length > 0) {
    const segment = pending.shift() as string;
    if (segment === '.') continue;
    if (segment === '..') {
      resolved = path.dirname(resolved);
      continue;
    }
    const candidate = path.join(resolved, segment);
    if (missing) {
      resolved = candidate;
      continue;
    }
    const target = linkTarget(candidate);
    if (target === null) {
      // Nothing there: a missing folder has no links below it, so the rest is plain text.
      missing = true;
      resolved = candidate;
      continue;
    }
    if (target === undefined) {
      resolved = candidate;
      continue;
    }
    followed += 1;
    if (followed > MAX_FOLLOWED_LINKS) return undefined;
    if (path.isAbsolute(target)) resolved = path.parse(target).root;
    pending.unshift(...segmentsOf(target));
  }
  return resolved;
}

/**
 * The real path of a root folder (links followed), or the folder as given when it cannot be
 * resolved (it does not exist): roots are trusted configuration, not model input.
 */
export function realRoot(root: string): string {
  try {
    return realpathSync.native(root);
  } catch {
    return resolveRealPath(path.resolve(root)) ?? path.resolve(root);
  }
}

function segmentsOf(value: string): string[] {
  return value.split(path.sep).filter((segment) => segment !== '');
}

/** A link's target, `undefined` for an existing entry that is no link, `null` when nothing is there. */
function linkTarget(candidate: string): string | undefined | null {
  try {
    const stats = lstatSync(candidate);
    return stats.isSymbolicLink() ? readlinkSync(candidate) : undefined;
  } catch {
    return null;
  }
}
