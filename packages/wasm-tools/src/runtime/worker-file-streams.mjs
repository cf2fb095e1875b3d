// File and folder streams, stat records and error codes for worker-filesystem.mjs: synchronous `fs` calls
// behind the stream classes of the instance's wasi:io (the worker's own, worker-wasi.mjs, or the
// shim's: the transpiled glue checks `instanceof` against the classes of its import object).
// Plain JS: this file runs in the forked worker (see worker.mjs).
import { readSync, writeSync } from 'node:fs';
import { ownWasi } from './worker-wasi.mjs';

const MAX_STREAM_READ = 1024 * 1024;
const symbolDispose = Symbol.dispose ?? Symbol.for('dispose');

/** Lets go of the fd (or folder handle) of a stream the guest dropped without disposing it. */
const leaked = new FinalizationRegistry((handle) => handle.release());
const WRITE_BUDGET = 1n << 20n;

const ERROR_CODES = {
  EACCES: 'access',
  EAGAIN: 'would-block',
  EWOULDBLOCK: 'would-block',
  EALREADY: 'already',
  EBADF: 'bad-descriptor',
  EBUSY: 'busy',
  EDEADLK: 'deadlock',
  EDQUOT: 'quota',
  EEXIST: 'exist',
  EFBIG: 'file-too-large',
  EILSEQ: 'illegal-byte-sequence',
  EINPROGRESS: 'in-progress',
  EINTR: 'interrupted',
  EINVAL: 'invalid',
  EIO: 'io',
  EISDIR: 'is-directory',
  ELOOP: 'loop',
  EMLINK: 'too-many-links',
  EMSGSIZE: 'message-size',
  ENAMETOOLONG: 'name-too-long',
  ENODEV: 'no-device',
  ENOENT: 'no-entry',
  ENOLCK: 'no-lock',
  ENOMEM: 'insufficient-memory',
  ENOSPC: 'insufficient-space',
  ENOTDIR: 'not-directory',
  ERR_FS_EISDIR: 'not-directory',
  ENOTEMPTY: 'not-empty',
  ENOTRECOVERABLE: 'not-recoverable',
  ENOTSUP: 'unsupported',
  ENOTTY: 'no-tty',
  ENXIO: 'no-such-device',
  EOVERFLOW: 'overflow',
  EPERM: 'not-permitted',
  EPIPE: 'pipe',
  EROFS: 'read-only',
  ESPIPE: 'invalid-seek',
  ETXTBSY: 'text-file-busy',
  EXDEV: 'cross-device',
};

/** The `wasi:filesystem` error code of a Node error (a code already given passes through). */
export function convertFsError(error) {
  if (typeof error === 'string') return error;
  return ERROR_CODES[error?.code] ?? 'io';
}

/** The descriptor type of a Stats or Dirent. */
export function lookupType(entry) {
  if (entry.isFile()) return 'regular-file';
  if (entry.isSocket()) return 'socket';
  if (entry.isSymbolicLink()) return 'symbolic-link';
  if (entry.isFIFO()) return 'fifo';
  if (entry.isDirectory()) return 'directory';
  if (entry.isCharacterDevice()) return 'character-device';
  if (entry.isBlockDevice()) return 'block-device';
  return 'unknown';
}

const NS_PER_SECOND = 1_000_000_000n;

function dateTime(nanoseconds) {
  return { seconds: nanoseconds / NS_PER_SECOND, nanoseconds: Number(nanoseconds % NS_PER_SECOND) };
}

/** The `descriptor-stat` record of bigint Stats. */
export function toStat(stats) {
  return {
    type: lookupType(stats),
    linkCount: stats.nlink,
    size: stats.size,
    dataAccessTimestamp: dateTime(stats.atimeNs),
    dataModificationTimestamp: dateTime(stats.mtimeNs),
    statusChangeTimestamp: dateTime(stats.ctimeNs),
  };
}

const streamClasses = new WeakMap();

/**
 * The file stream classes on top of one wasi:io (`{ io, clocks }` in the shim's namespace shapes),
 * made once per wasi:io. Default: the worker's own.
 */
export function fileStreamClasses(wasi = ownWasi) {
  const known = streamClasses.get(wasi.io);
  if (known !== undefined) return known;
  const { io, clocks } = wasi;
  const streamFailure = (error) => ({ tag: 'last-operation-failed', val: new io.error.Error(error) });
  const readyPollable = () => clocks.monotonicClock.subscribeDuration(0n);

  /** Reads a file from an offset on; `closed` at its end. Holds its own reference to the fd. */
  class FileInputStream extends io.streams.InputStream {
    constructor(handle, offset) {
      super();
      this.handle = handle;
      this.position = offset;
      this.done = false;
      leaked.register(this, handle, this);
    }
    read(length) {
      if (this.done) throw { tag: 'closed' };
      const buffer = new Uint8Array(Math.min(Number(length), MAX_STREAM_READ));
      let count;
      try {
        count = readSync(this.handle.fd, buffer, 0, buffer.length, this.position);
      } catch (error) {
        throw streamFailure(error);
      }
      if (count === 0 && buffer.length > 0) throw { tag: 'closed' };
      this.position += count;
      return buffer.subarray(0, count);
    }
    blockingRead(length) {
      return this.read(length);
    }
    skip(length) {
      return BigInt(this.read(length).length);
    }
    blockingSkip(length) {
      return BigInt(this.read(length).length);
    }
    subscribe() {
      return readyPollable();
    }
    [symbolDispose]() {
      if (this.done) return;
      this.done = true;
      leaked.unregister(this);
      this.handle.release();
    }
  }

  /** Writes a file from an offset on (append streams start at the size). */
  class FileOutputStream extends io.streams.OutputStream {
    constructor(handle, offset) {
      super();
      this.handle = handle;
      this.position = offset;
      this.done = false;
      leaked.register(this, handle, this);
    }
    checkWrite() {
      if (this.done) throw { tag: 'closed' };
      return WRITE_BUDGET;
    }
    write(bytes) {
      if (this.done) throw { tag: 'closed' };
      let offset = 0;
      try {
        while (offset < bytes.byteLength) {
          offset += writeSync(this.handle.fd, bytes, offset, bytes.byteLength - offset, this.position + offset);
        }
      } catch (error) {
        throw streamFailure(error);
      }
      this.position += offset;
    }
    blockingWriteAndFlush(bytes) {
      this.write(bytes);
    }
    flush() {}
    blockingFlush() {}
    writeZeroes(length) {
      this.write(new Uint8Array(Number(length)));
    }
    blockingWriteZeroesAndFlush(length) {
      this.writeZeroes(length);
    }
    splice() {
      throw { tag: 'closed' };
    }
    blockingSplice() {
      throw { tag: 'closed' };
    }
    subscribe() {
      return readyPollable();
    }
    [symbolDispose]() {
      if (this.done) return;
      this.done = true;
      leaked.unregister(this);
      this.handle.release();
    }
  }

  const classes = { FileInputStream, FileOutputStream };
  streamClasses.set(io, classes);
  return classes;
}

/** Entries of an opened folder, one per call; closed when disposed (or collected). */
export class DirectoryEntryStream {
  constructor(dir) {
    this._dir = dir;
    this._handle = { release: () => dir.closeSync() };
    leaked.register(this, this._handle, this);
  }

  readDirectoryEntry() {
    let entry;
    try {
      entry = this._dir.readSync();
    } catch (error) {
      throw convertFsError(error);
    }
    if (entry === null) return undefined;
    return { name: entry.name, type: lookupType(entry) };
  }

  [symbolDispose]() {
    if (this._closed) return;
    this._closed = true;
    leaked.unregister(this);
    try {
      this._dir.closeSync();
    } catch {
      // Already closed.
    }
  }
}
