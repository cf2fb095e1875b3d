// Path resolution for worker-filesystem.mjs, the same rules as the preview2-shim's: paths are
// resolved segment by segment under a descriptor's folder, and nothing outside it is reachable
// by `..`, an absolute path or a symlink. Plain JS: this file runs in the forked worker.
import { constants, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { posix } from 'node:path';
import { convertFsError } from './worker-file-streams.mjs';

const MAX_SYMLINKS = 40;

/**
 * Resolves `subpath` under `base` the way the shim does: absolute paths and `..` above the base
 * are refused; every symlink met on the way is followed only when its target is relative and
 * stays under the base (an absolute target is refused), at most 40 of them; the last segment is
 * followed only when asked (or when the path ends in `/`). A missing segment ends the walk: the
 * rest is appended as given (a file about to be created).
 */
export function resolveFullPath(base, subpath, followFinalSymlink) {
  const normalised = String(subpath).replace(/\/\/+/g, '/');
  if (normalised.startsWith('/')) throw 'not-permitted';
  const trailingSlash = normalised.endsWith('/');
  const segments = [];
  for (const segment of normalised.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.pop() === undefined) throw 'not-permitted';
    } else {
      segments.push(segment);
    }
  }
  let baseResolved;
  try {
    baseResolved = realpathSync(base);
  } catch (error) {
    throw convertFsError(error);
  }
  let current = baseResolved;
  let pending = segments;
  let followed = 0;
  while (pending.length > 0) {
    const segment = pending.shift();
    const candidate = posix.join(current, segment);
    let stats;
    try {
      stats = lstatSync(candidate);
    } catch (error) {
      if (error.code === 'ENOENT') {
        const unresolved = posix.join(candidate, ...pending);
        return trailingSlash ? `${unresolved}/` : unresolved;
      }
      throw convertFsError(error);
    }
    const isFinal = pending.length === 0;
    if (!stats.isSymbolicLink() || (isFinal && !followFinalSymlink && !trailingSlash)) {
      current = candidate;
      continue;
    }
    if (++followed > MAX_SYMLINKS) throw 'loop';
    let target;
    try {
      target = readlinkSync(candidate);
    } catch (error) {
      throw convertFsError(error);
    }
    if (posix.isAbsolute(target)) throw 'not-permitted';
    const relativeCurrent = posix.relative(baseResolved, current);
    const targetSegments = relativeCurrent ? relativeCurrent.split('/') : [];
    for (const targetSegment of target.split('/')) {
      if (targetSegment === '' || targetSegment === '.') continue;
      if (targetSegment === '..') {
        if (targetSegments.pop() === undefined) throw 'not-permitted';
      } else {
        targetSegments.push(targetSegment);
      }
    }
    pending = [...targetSegments, ...pending];
    current = baseResolved;
  }
  return trailingSlash && current !== baseResolved ? `${current}/` : current;
}

export function openFlagsFor(pathFlags, openFlags, descriptorFlags) {
  let flags = 0;
  if (openFlags.create) flags |= constants.O_CREAT;
  if (openFlags.directory) flags |= constants.O_DIRECTORY;
  if (openFlags.exclusive) flags |= constants.O_EXCL;
  if (openFlags.truncate) flags |= constants.O_TRUNC;
  if (descriptorFlags.read && descriptorFlags.write) flags |= constants.O_RDWR;
  else if (descriptorFlags.write) flags |= constants.O_WRONLY;
  else flags |= constants.O_RDONLY;
  if (!pathFlags.symlinkFollow) flags |= constants.O_NOFOLLOW;
  return flags;
}
