// wasi:filesystem for the worker process with synchronous `fs` calls. The preview2-shim sends
// every open, read, write and close to a helper thread and blocks on it (two thread hops and an
// allocation of the whole requested length per read): 0.2-1 ms per file operation, much more on a
// busy machine. A worker runs one guest call at a time and the guest blocks on each call anyway,
// so plain sync calls are the same semantics without the hops. Path resolution follows the shim's
// rules exactly (worker-fs-paths.mjs); on top, links are never created, a read-only root refuses
// every change, for itself and every descriptor opened through it, and every operation goes
// through the path guard (worker-path-guard.mjs): anchored on its real parent folder, with the
// policy's protected paths, secret paths and hard-link rule. Plain JS: this file runs in the
// forked worker (see worker.mjs).
import {
  closeSync,
  constants,
  existsSync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  futimesSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  opendirSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { posix } from 'node:path';
import { convertFsError, DirectoryEntryStream, fileStreamClasses, lookupType, toStat } from './worker-file-streams.mjs';
import { openFlagsFor, resolveFullPath } from './worker-fs-paths.mjs';
import { ANCHORED, anchor, createPathGuard, linkStaysInside, scanFolder, withAnchor } from './worker-path-guard.mjs';

/** Largest single read handed to a guest (a guest asking for more gets a short read). */
const MAX_READ = 64 * 1024 * 1024;
const symbolDispose = Symbol.dispose ?? Symbol.for('dispose');

/** Closes descriptors a guest dropped without disposing them (as the shim does). */
const leaked = new FinalizationRegistry((handle) => handle.release());

/** An open fd shared by a descriptor and the streams made from it; closed when the last lets go. */
class FdHandle {
  constructor(fd) {
    this.fd = fd;
    this.refs = 1;
  }
  retain() {
    this.refs += 1;
    return this;
  }
  release() {
    this.refs -= 1;
    if (this.refs === 0) {
      try {
        closeSync(this.fd);
      } catch {
        // Already closed.
      }
    }
  }
}

function fail(error) {
  throw convertFsError(error);
}

function sizeArgument(value) {
  return Number(value);
}

function timestampMs(timestamp, current) {
  switch (timestamp.tag) {
    case 'no-change':
      return current;
    case 'timestamp':
      return Number(timestamp.val.seconds) * 1000 + timestamp.val.nanoseconds / 1e6;
    default:
      return Date.now();
  }
}

/**
 * A `wasi:filesystem/types` descriptor: the preopened root (`handle` null) or a file or folder
 * opened under it. `base` is the host path `*At` methods resolve from; `readOnly` is inherited.
 */
export class Descriptor {
  constructor(state) {
    this._state = state;
    if (state.handle !== null) leaked.register(this, state.handle, this);
  }

  /** The descriptor of a preopened root folder; its file streams are `streams`' classes. */
  static preopen(hostPath, readOnly, policy, streams = fileStreamClasses()) {
    const base = hostPath.endsWith('/') && hostPath.length > 1 ? hostPath.slice(0, -1) : hostPath;
    const guard = createPathGuard(realpathSync(base), policy ?? { protectedPaths: [], secretPaths: [] });
    return new Descriptor({
      base,
      fullPath: base,
      handle: null,
      flags: { read: true },
      readOnly,
      preopen: true,
      guard,
      streams,
    });
  }

  #fd() {
    const handle = this._state.handle;
    if (handle === null || handle.refs === 0) throw 'bad-descriptor';
    return handle.fd;
  }

  #writable() {
    if (this._state.readOnly) throw 'read-only';
  }

  #resolve(path, follow) {
    // An opened folder resolves from where it really is now (its descriptor), not from its old name.
    const handle = this._state.handle;
    const base = ANCHORED && handle !== null && handle.refs > 0 ? `/proc/self/fd/${handle.fd}` : this._state.base;
    return resolveFullPath(base, path, follow);
  }

  /** Refuses changing a protected or secret path (root-relative). */
  #changeable(relative) {
    const guard = this._state.guard;
    if (relative === '.' || guard.isProtected(relative) || guard.isSecret(relative)) throw 'not-permitted';
  }

  #listingPath() {
    const handle = this._state.handle;
    return ANCHORED && handle !== null && handle.refs > 0 ? `/proc/self/fd/${handle.fd}` : this._state.fullPath;
  }

  [symbolDispose]() {
    const handle = this._state.handle;
    if (handle === null || this._state.disposed) return;
    this._state.disposed = true;
    leaked.unregister(this);
    handle.release();
  }

  readViaStream(offset) {
    if (this._state.preopen) throw 'is-directory';
    this.#fd();
    return new this._state.streams.FileInputStream(this._state.handle.retain(), Number(offset));
  }

  writeViaStream(offset) {
    this.#writable();
    if (this._state.preopen) throw 'is-directory';
    this.#fd();
    return new this._state.streams.FileOutputStream(this._state.handle.retain(), Number(offset));
  }

  appendViaStream() {
    return this.writeViaStream(this.stat().size);
  }

  advise() {
    if (this.getType() === 'directory') throw 'bad-descriptor';
  }

  syncData() {
    if (this._state.preopen) throw 'invalid';
    try {
      fdatasyncSync(this.#fd());
    } catch (error) {
      if (error?.code !== 'EPERM') fail(error);
    }
  }

  sync() {
    if (this._state.preopen) throw 'invalid';
    try {
      fsyncSync(this.#fd());
    } catch (error) {
      if (error?.code !== 'EPERM') fail(error);
    }
  }

  getFlags() {
    return this._state.flags;
  }

  getType() {
    if (this._state.preopen) return 'directory';
    try {
      return lookupType(fstatSync(this.#fd()));
    } catch (error) {
      return fail(error);
    }
  }

  setSize(size) {
    this.#writable();
    if (this._state.preopen) throw 'is-directory';
    try {
      ftruncateSync(this.#fd(), sizeArgument(size));
    } catch (error) {
      fail(error);
    }
  }

  setTimes(accessed, modified) {
    this.#writable();
    if (this._state.preopen) throw 'invalid';
    const current = this.stat();
    const atime = timestampMs(accessed, timestampMs({ tag: 'timestamp', val: current.dataAccessTimestamp }));
    const mtime = timestampMs(modified, timestampMs({ tag: 'timestamp', val: current.dataModificationTimestamp }));
    try {
      futimesSync(this.#fd(), atime / 1000, mtime / 1000);
    } catch (error) {
      fail(error);
    }
  }

  read(length, offset) {
    const fd = this.#fd();
    const buffer = new Uint8Array(Math.min(sizeArgument(length), MAX_READ));
    let count;
    try {
      count = readSync(fd, buffer, 0, buffer.length, sizeArgument(offset));
    } catch (error) {
      return fail(error);
    }
    return [buffer.subarray(0, count), count === 0];
  }

  write(buffer, offset) {
    this.#writable();
    try {
      return BigInt(writeSync(this.#fd(), buffer, 0, buffer.byteLength, sizeArgument(offset)));
    } catch (error) {
      return fail(error);
    }
  }

  readDirectory() {
    try {
      return new DirectoryEntryStream(opendirSync(this.#listingPath()));
    } catch (error) {
      return fail(error);
    }
  }

  createDirectoryAt(path) {
    this.#writable();
    withAnchor(this._state.guard, this.#resolve(path, false), (target) => {
      this.#changeable(target.relative);
      try {
        mkdirSync(target.path);
      } catch (error) {
        fail(error);
      }
    });
  }

  stat() {
    try {
      return toStat(
        this._state.preopen
          ? statSync(this._state.fullPath, { bigint: true })
          : fstatSync(this.#fd(), { bigint: true }),
      );
    } catch (error) {
      return fail(error);
    }
  }

  statAt(pathFlags, path) {
    return withAnchor(this._state.guard, this.#resolve(path, pathFlags.symlinkFollow), (target) => {
      try {
        // The resolver already followed a final link that was asked to be followed; a link found
        // there now was swapped in and is not followed.
        return toStat(
          (ANCHORED ? lstatSync : pathFlags.symlinkFollow ? statSync : lstatSync)(target.path, { bigint: true }),
        );
      } catch (error) {
        return fail(error);
      }
    });
  }

  setTimesAt(pathFlags, path, accessed, modified) {
    this.#writable();
    const current = this.statAt(pathFlags, path);
    const atime = timestampMs(accessed, timestampMs({ tag: 'timestamp', val: current.dataAccessTimestamp }));
    const mtime = timestampMs(modified, timestampMs({ tag: 'timestamp', val: current.dataModificationTimestamp }));
    withAnchor(this._state.guard, this.#resolve(path, pathFlags.symlinkFollow), (target) => {
      this.#changeable(target.relative);
      try {
        (ANCHORED || !pathFlags.symlinkFollow ? lutimesSync : utimesSync)(target.path, atime / 1000, mtime / 1000);
      } catch (error) {
        fail(error);
      }
    });
  }

  linkAt() {
    // A hard link could later be written through by the host and change a file outside the root.
    throw 'not-permitted';
  }

  symlinkAt() {
    // A symlink could later point a path outside the root.
    throw 'not-permitted';
  }

  openAt(pathFlags, path, openFlags, descriptorFlags) {
    if (
      this._state.readOnly &&
      (openFlags?.create || openFlags?.truncate || descriptorFlags?.write || descriptorFlags?.mutateDirectory)
    ) {
      throw 'read-only';
    }
    const fullPath = this.#resolve(path, pathFlags.symlinkFollow);
    if (descriptorFlags.requestedWriteSync || descriptorFlags.mutateDirectory) throw 'unsupported';
    if (descriptorFlags.fileIntegritySync || descriptorFlags.dataIntegritySync) throw 'unsupported';
    const guard = this._state.guard;
    const changes = openFlags.create || openFlags.truncate || descriptorFlags.write;
    const anchored = anchor(guard, fullPath);
    let fd;
    let type;
    try {
      if (guard.isSecret(anchored.relative)) throw 'not-permitted';
      if (changes && guard.isProtected(anchored.relative)) throw 'not-permitted';
      // Truncation waits until the opened file is known not to be another name of an outside file.
      let flags = openFlagsFor(pathFlags, { ...openFlags, truncate: false }, descriptorFlags);
      if (ANCHORED) flags |= constants.O_NOFOLLOW;
      try {
        fd = openSync(anchored.path, flags);
      } catch (error) {
        if (error?.code === 'ERR_INVALID_ARG_VALUE') throw 'invalid';
        return fail(error);
      }
      try {
        const stats = fstatSync(fd);
        type = lookupType(stats);
        if (stats.isFile() && stats.nlink > 1) {
          if (descriptorFlags.write || openFlags.truncate) throw 'not-permitted';
          if (guard.isSecretFile(stats)) throw 'not-permitted';
        }
        if (openFlags.truncate) {
          if (type === 'directory') throw 'is-directory';
          truncateOpened(fd, descriptorFlags.write === true, anchored.path);
        }
      } catch (error) {
        closeSync(fd);
        return fail(error);
      }
    } finally {
      anchored.release();
    }
    if (type === 'directory' && descriptorFlags.write) {
      closeSync(fd);
      throw 'is-directory';
    }
    if (fullPath.endsWith('/') && type !== 'directory') {
      closeSync(fd);
      throw 'not-directory';
    }
    return new Descriptor({
      base: anchored.real,
      fullPath: anchored.real,
      handle: new FdHandle(fd),
      flags: descriptorFlags,
      readOnly: this._state.readOnly,
      preopen: false,
      guard,
      streams: this._state.streams,
    });
  }

  readlinkAt(path) {
    return withAnchor(this._state.guard, this.#resolve(path, false), (target) => {
      try {
        return readlinkSync(target.path);
      } catch (error) {
        return fail(error);
      }
    });
  }

  removeDirectoryAt(path) {
    this.#writable();
    withAnchor(this._state.guard, this.#resolve(path, false), (target) => {
      this.#changeable(target.relative);
      try {
        rmdirSync(target.path);
      } catch (error) {
        fail(error);
      }
    });
  }

  renameAt(oldPath, newDescriptor, newPath) {
    this.#writable();
    if (!(newDescriptor instanceof Descriptor)) throw 'bad-descriptor';
    if (newDescriptor._state.readOnly) throw 'read-only';
    const guard = this._state.guard;
    const from = anchor(guard, this.#resolve(oldPath, false));
    try {
      const to = anchor(guard, newDescriptor.#resolve(newPath, false));
      try {
        this.#changeable(from.relative);
        this.#changeable(to.relative);
        renameChecked(guard, from, to);
      } finally {
        to.release();
      }
    } finally {
      from.release();
    }
  }

  unlinkFileAt(path) {
    this.#writable();
    const fullPath = this.#resolve(path, false);
    if (fullPath.endsWith('/')) {
      let isDirectory = false;
      try {
        isDirectory = statSync(fullPath).isDirectory();
      } catch {
        // Missing: not a directory.
      }
      throw isDirectory ? (process.platform === 'darwin' ? 'not-permitted' : 'is-directory') : 'not-directory';
    }
    withAnchor(this._state.guard, fullPath, (target) => {
      this.#changeable(target.relative);
      try {
        unlinkSync(target.path);
      } catch (error) {
        fail(error);
      }
    });
  }

  isSameObject(other) {
    return other === this;
  }

  metadataHash() {
    if (this._state.preopen) return { upper: 0n, lower: 0n };
    try {
      const stats = fstatSync(this.#fd(), { bigint: true });
      return { upper: stats.mtimeNs, lower: stats.ino };
    } catch (error) {
      return fail(error);
    }
  }

  metadataHashAt(pathFlags, path) {
    return withAnchor(this._state.guard, this.#resolve(path, pathFlags.symlinkFollow), (target) => {
      try {
        const stat = ANCHORED || !pathFlags.symlinkFollow ? lstatSync : statSync;
        const stats = stat(target.path, { bigint: true });
        return { upper: stats.mtimeNs, lower: stats.ino };
      } catch (error) {
        return fail(error);
      }
    });
  }
}

/**
 * Empties an opened file: through its own descriptor when that is writable, else through a
 * second descriptor of the same open file (`/proc/self/fd/N` names the file, not a path).
 */
function truncateOpened(fd, writable, path) {
  if (writable) {
    ftruncateSync(fd, 0);
    return;
  }
  // `/proc/self/fd/N` is itself a link (to the open file, not a path walk): it must be followed.
  const writer = ANCHORED
    ? openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY)
    : openSync(path, constants.O_WRONLY | constants.O_NOFOLLOW);
  try {
    ftruncateSync(writer, 0);
  } finally {
    closeSync(writer);
  }
}

/**
 * A rename that never makes an outward link: a moved symlink must still lead inside the root from
 * its new folder; a moved folder must hold no protected or secret path (under its old or new
 * name), and when it changes parent every link inside it is checked at its new place, the move
 * being undone when one would lead out.
 */
function renameChecked(guard, from, to) {
  let stats;
  try {
    stats = lstatSync(from.path);
  } catch (error) {
    fail(error);
  }
  if (stats.isSymbolicLink()) {
    let target;
    try {
      target = readlinkSync(from.path);
    } catch (error) {
      fail(error);
    }
    if (!linkStaysInside(guard, posix.dirname(to.real), target)) throw 'not-permitted';
  }
  if (!stats.isDirectory()) {
    try {
      renameSync(from.path, to.path);
    } catch (error) {
      fail(error);
    }
    return;
  }
  const entries = scanFolder(from.path);
  if (entries === undefined) throw 'not-permitted';
  for (const entry of entries) {
    for (const base of [from.relative, to.relative]) {
      const relative = `${base}/${entry.relative}`;
      if (guard.isProtected(relative) || guard.isSecret(relative)) throw 'not-permitted';
    }
  }
  const replacedFolder = existsSync(to.path);
  try {
    renameSync(from.path, to.path);
  } catch (error) {
    fail(error);
  }
  if (posix.dirname(from.real) === posix.dirname(to.real)) return;
  const outward = entries.some((entry) => {
    if (!entry.isSymlink) return false;
    try {
      const target = readlinkSync(posix.join(to.path, entry.relative));
      return !linkStaysInside(guard, posix.dirname(posix.join(to.real, entry.relative)), target);
    } catch {
      return true;
    }
  });
  if (!outward) return;
  renameSync(to.path, from.path);
  if (replacedFolder) mkdirSync(to.path);
  throw 'not-permitted';
}

/**
 * The `wasi:filesystem/types` and `wasi:filesystem/preopens` imports for one instance: `root`
 * (when given) preopened at `/`, read-only when asked, guarded by `policy` (the protected and
 * secret patterns of the host's path policy). File streams are of `wasi`'s stream classes (the
 * instance's wasi:io; default the worker's own, worker-wasi.mjs).
 */
export function createFilesystemImports(root, readOnly, policy, wasi) {
  const streams = fileStreamClasses(wasi);
  const directories = root === undefined ? [] : [[Descriptor.preopen(root, readOnly, policy, streams), '/']];
  return {
    types: {
      Descriptor,
      DirectoryEntryStream,
      filesystemErrorCode(error) {
        try {
          return convertFsError(error?.payload);
        } catch {
          return undefined;
        }
      },
    },
    preopens: { getDirectories: () => [...directories] },
  };
}
