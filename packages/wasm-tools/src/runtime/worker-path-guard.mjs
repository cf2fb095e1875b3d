// The path policy inside the worker: every guest filesystem operation is checked here, on the
// object the kernel actually reaches, with the same protected and secret patterns the host's
// policy uses (src/policy/protected-paths.ts; `worker-path-guard.test.ts` checks the two agree).
// Operations are anchored: the parent folder is opened first and its real location read back from
// the kernel (`/proc/self/fd/N`), and the last step goes through that descriptor, so a folder
// swapped for an outward symlink at any moment cannot redirect the open. Plain JS: this file runs
// in the forked worker (see worker.mjs).
import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
} from 'node:fs';
import { posix } from 'node:path';
import picomatch from 'picomatch';
import { convertFsError } from './worker-file-streams.mjs';

/** Linux exposes each open descriptor's real location; elsewhere operations are not anchored. */
export const ANCHORED = process.platform === 'linux' && existsSync('/proc/self/fd');

/** Most entries a folder rename looks at (for protected names and links inside it). */
export const MAX_RENAME_SCAN_ENTRIES = 10_000;

const MATCH_OPTIONS = { dot: true, nocase: true };

function normalisePattern(pattern) {
  return pattern
    .normalize('NFC')
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+|\/+$/g, '');
}

/** The host policy's `isProtected`: the path or one of its ancestors matches a pattern. */
function compileMatcher(patterns) {
  const matchers = patterns
    .map(normalisePattern)
    .filter((pattern) => pattern !== '')
    .map((pattern) => picomatch(pattern, MATCH_OPTIONS));
  return (relative) => {
    if (relative === '.' || relative === '') return false;
    const segments = relative.normalize('NFC').split('/');
    for (let length = 1; length <= segments.length; length += 1) {
      const prefix = segments.slice(0, length).join('/');
      if (matchers.some((matcher) => matcher(prefix))) return true;
    }
    return false;
  };
}

function isSymlink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function isInside(rootReal, absolute) {
  return absolute === rootReal || absolute.startsWith(rootReal === '/' ? '/' : `${rootReal}/`);
}

function relativeTo(rootReal, absolute) {
  return absolute === rootReal ? '.' : posix.relative(rootReal, absolute);
}

/**
 * The guard of one preopened root: `protectedPaths` are never changed, `secretPaths` never
 * opened, changed or removed (also through another hard link), hard-linked files never written.
 * @param {string} rootReal the root's real path
 * @param {{ protectedPaths: readonly string[], secretPaths: readonly string[] }} policy
 */
export function createPathGuard(rootReal, policy) {
  const isProtected = compileMatcher(policy.protectedPaths);
  const isSecret = compileMatcher(policy.secretPaths);
  const literalSecrets = policy.secretPaths.filter((pattern) => /^[^*?[\]{}!]+$/.test(pattern));

  /** device:inode of the secret files named literally (a hard link elsewhere is the same file). */
  function secretIdentities() {
    const identities = new Set();
    for (const pattern of literalSecrets) {
      try {
        const stats = lstatSync(posix.join(rootReal, normalisePattern(pattern)));
        if (stats.isFile()) identities.add(`${stats.dev}:${stats.ino}`);
      } catch {
        // Absent: nothing to protect.
      }
    }
    return identities;
  }

  return {
    rootReal,
    isProtected,
    isSecret,
    /** Whether an opened file (its fstat) is a secret file reached through another name. */
    isSecretFile(stats) {
      return stats.isFile() && stats.nlink > 1 && secretIdentities().has(`${stats.dev}:${stats.ino}`);
    },
  };
}

/**
 * Anchors `fullPath` (a host path the resolver produced) for one operation: opens its parent
 * folder without following a final symlink, reads the folder's real location from the kernel and
 * refuses it unless it lies inside the root. `path` is then the name under that open folder
 * (`/proc/self/fd/N/name`), which the kernel looks up in that very folder whatever happens to the
 * path string meanwhile. Call `release()` when done.
 */
export function anchor(guard, fullPath) {
  const trimmed = fullPath.length > 1 && fullPath.endsWith('/') ? fullPath.slice(0, -1) : fullPath;
  if (trimmed === guard.rootReal) {
    return { path: guard.rootReal, relative: '.', real: guard.rootReal, release() {} };
  }
  const parent = posix.dirname(trimmed);
  const name = posix.basename(trimmed);
  if (!ANCHORED) {
    const real = posix.join(parent, name);
    if (!isInside(guard.rootReal, real)) throw 'not-permitted';
    return { path: real, relative: relativeTo(guard.rootReal, real), real, release() {} };
  }
  let fd;
  try {
    fd = openSync(parent, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (error) {
    // A folder replaced by a symlink between resolving and opening: a swap, refused.
    if (error?.code === 'ELOOP' || (error?.code === 'ENOTDIR' && isSymlink(parent))) throw 'not-permitted';
    throw convertFsError(error);
  }
  let parentReal;
  try {
    parentReal = readlinkSync(`/proc/self/fd/${fd}`);
  } catch (error) {
    closeSync(fd);
    throw convertFsError(error);
  }
  if (!isInside(guard.rootReal, parentReal)) {
    closeSync(fd);
    throw 'not-permitted';
  }
  const real = posix.join(parentReal, name);
  let released = false;
  return {
    path: `/proc/self/fd/${fd}/${name}`,
    relative: relativeTo(guard.rootReal, real),
    real,
    /** The parent folder itself, through the open descriptor. */
    parentPath: `/proc/self/fd/${fd}`,
    release() {
      if (released) return;
      released = true;
      closeSync(fd);
    },
  };
}

/** Runs `action(anchored)` on an anchored path and always lets the anchor go. */
export function withAnchor(guard, fullPath, action) {
  const anchored = anchor(guard, fullPath);
  try {
    return action(anchored);
  } finally {
    anchored.release();
  }
}

/**
 * Whether a symlink whose text is `target`, sitting in the real folder `folderReal`, leads inside
 * the root as the kernel would follow it: an existing target is real-pathed (every link on the way
 * followed); a dangling one is judged by its text from the folder's real path.
 */
export function linkStaysInside(guard, folderReal, target) {
  const joined = posix.isAbsolute(target) ? target : posix.join(folderReal, target);
  let resolved;
  try {
    resolved = realpathSync.native(joined);
  } catch {
    resolved = posix.resolve(folderReal, target);
  }
  return isInside(guard.rootReal, resolved);
}

/**
 * Every entry below a folder (not following links), as `{ relative, isSymlink }` with `relative`
 * under the folder; `undefined` when there are more than {@link MAX_RENAME_SCAN_ENTRIES}.
 */
export function scanFolder(folder) {
  const entries = [];
  const pending = [''];
  while (pending.length > 0) {
    const relative = pending.pop();
    let children;
    try {
      children = readdirSync(relative === '' ? folder : posix.join(folder, relative), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const child of children) {
      const childRelative = relative === '' ? child.name : `${relative}/${child.name}`;
      entries.push({ relative: childRelative, isSymlink: child.isSymbolicLink() });
      if (entries.length > MAX_RENAME_SCAN_ENTRIES) return undefined;
      if (child.isDirectory()) pending.push(childRelative);
    }
  }
  return entries;
}
