// wasi:filesystem for the worker process with synchronous `fs` calls. The preview2-shim sends
// every open, read, write and close to a helper thread and blocks on it (two thread hops and an
// allocation of the whole requested length per read): 0.2-1 ms per file operation, much more on a
// busy machine. A worker runs one guest call at a time and the guest blocks on each call anyway,
// so plain sync calls are the same semantics without the hops. Path resolution follows the shim's
// rules exactly (worker-fs-paths.mjs); on top, links are never created and a read-only root
// refuses every change, for itself and every descriptor opened through it. Plain JS: this file
// runs in the forked worker (see worker.mjs).
import {
  closeSync,
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
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import {
  convertFsError,
  DirectoryEntryStream,
  FileInputStream,
  FileOutputStream,
  lookupType,
  toStat,
} from './worker-file-streams.mjs';
import { openFlagsFor, resolveFullPath } from './worker-fs-paths.mjs';

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

  /** The descriptor of a preopened root folder. */
  static preopen(hostPath, readOnly) {
    const base = hostPath.endsWith('/') && hostPath.length > 1 ? hostPath.slice(0, -1) : hostPath;
    return new Descriptor({ base, fullPath: base, handle: null, flags: { read: true }, readOnly, preopen: true });
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
    return resolveFullPath(this._state.base, path, follow);
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
    return new FileInputStream(this._state.handle.retain(), Number(offset));
  }

  writeViaStream(offset) {
    this.#writable();
    if (this._state.preopen) throw 'is-directory';
    this.#fd();
    return new FileOutputStream(this._state.handle.retain(), Number(offset));
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
      return new DirectoryEntryStream(opendirSync(this._state.fullPath));
    } catch (error) {
      return fail(error);
    }
  }

  createDirectoryAt(path) {
    this.#writable();
    try {
      mkdirSync(this.#resolve(path, false));
    } catch (error) {
      fail(error);
    }
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
    const fullPath = this.#resolve(path, pathFlags.symlinkFollow);
    try {
      return toStat((pathFlags.symlinkFollow ? statSync : lstatSync)(fullPath, { bigint: true }));
    } catch (error) {
      return fail(error);
    }
  }

  setTimesAt(pathFlags, path, accessed, modified) {
    this.#writable();
    const current = this.statAt(pathFlags, path);
    const atime = timestampMs(accessed, timestampMs({ tag: 'timestamp', val: current.dataAccessTimestamp }));
    const mtime = timestampMs(modified, timestampMs({ tag: 'timestamp', val: current.dataModificationTimestamp }));
    const fullPath = this.#resolve(path, pathFlags.symlinkFollow);
    try {
      (pathFlags.symlinkFollow ? utimesSync : lutimesSync)(fullPath, atime / 1000, mtime / 1000);
    } catch (error) {
      fail(error);
    }
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
    const hostPath = fullPath.endsWith('/') ? fullPath.slice(0, -1) : fullPath;
    let fd;
    try {
      fd = openSync(hostPath, openFlagsFor(pathFlags, openFlags, descriptorFlags));
    } catch (error) {
      if (error?.code === 'ERR_INVALID_ARG_VALUE') throw 'invalid';
      return fail(error);
    }
    let type;
    try {
      type = lookupType(fstatSync(fd));
    } catch (error) {
      closeSync(fd);
      return fail(error);
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
      base: hostPath,
      fullPath: hostPath,
      handle: new FdHandle(fd),
      flags: descriptorFlags,
      readOnly: this._state.readOnly,
      preopen: false,
    });
  }

  readlinkAt(path) {
    try {
      return readlinkSync(this.#resolve(path, false));
    } catch (error) {
      return fail(error);
    }
  }

  removeDirectoryAt(path) {
    this.#writable();
    try {
      rmdirSync(this.#resolve(path, false));
    } catch (error) {
      fail(error);
    }
  }

  renameAt(oldPath, newDescriptor, newPath) {
    this.#writable();
    if (!(newDescriptor instanceof Descriptor)) throw 'bad-descriptor';
    if (newDescriptor._state.readOnly) throw 'read-only';
    const from = this.#resolve(oldPath, false);
    const to = newDescriptor.#resolve(newPath, false);
    try {
      renameSync(from, to);
    } catch (error) {
      fail(error);
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
    try {
      unlinkSync(fullPath);
    } catch (error) {
      fail(error);
    }
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
    const fullPath = this.#resolve(path, pathFlags.symlinkFollow);
    try {
      const stats = (pathFlags.symlinkFollow ? statSync : lstatSync)(fullPath, { bigint: true });
      return { upper: stats.mtimeNs, lower: stats.ino };
    } catch (error) {
      return fail(error);
    }
  }
}

/**
 * The `wasi:filesystem/types` and `wasi:filesystem/preopens` imports for one instance: `root`
 * (when given) preopened at `/`, read-only when asked.
 */
export function createFilesystemImports(root, readOnly) {
  const directories = root === undefined ? [] : [[Descriptor.preopen(root, readOnly), '/']];
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
