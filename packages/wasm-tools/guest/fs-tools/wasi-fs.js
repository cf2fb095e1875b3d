// The guest's only door to files: the preopened root at `/` through wasi:filesystem. Every path
// here is root-relative (`src/a.ts`, `.` for the root); symlinks are never followed at the last
// step (the host resolves them through its path policy before the call).
import { getDirectories } from 'wasi:filesystem/preopens@0.2.12';

const NO_FOLLOW = { symlinkFollow: false };
const READ = { read: true };
// Reads start small and grow: the host allocates (and copies) the whole requested length on
// every read, so asking for 1 MiB to get a 7 KB file costs far more than the file.
const FIRST_READ_CHUNK = 64 * 1024;
const READ_CHUNK = 1024 * 1024;
const WRITE_CHUNK = 1024 * 1024;

/** A filesystem failure with its WASI error code and a message the model can act on. */
export class FsError extends Error {
  constructor(code, path, message) {
    super(message ?? describeCode(code, path));
    this.name = 'FsError';
    this.code = code;
    this.path = path;
  }
}

/** `src/a.ts` -> `/src/a.ts`: how paths are shown to the model (the root is `/`). */
export function displayPath(relative) {
  return relative === '.' ? '/' : `/${relative}`;
}

/** Normalises a tool path to root-relative form; `..` is refused (the host resolves paths first). */
export function toRelative(path) {
  const segments = [];
  for (const segment of String(path).split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..')
      throw new FsError(
        'not-permitted',
        path,
        `The path "${path}" contains "..": give a path inside the working folder.`,
      );
    segments.push(segment);
  }
  return segments.length === 0 ? '.' : segments.join('/');
}

/** Joins a root-relative folder and a name. */
export function joinPath(folder, name) {
  return folder === '.' ? name : `${folder}/${name}`;
}

/** The parent of a root-relative path (`.` for top-level names). */
export function parentPath(relative) {
  const cut = relative.lastIndexOf('/');
  return cut < 0 ? '.' : relative.slice(0, cut);
}

function describeCode(code, path) {
  const shown = displayPath(path);
  switch (code) {
    case 'no-entry':
      return `${shown} does not exist.`;
    case 'not-permitted':
    case 'access':
      return `${shown} is not accessible from the sandbox (outside the working folder, or permission denied).`;
    case 'loop':
      return `${shown} is a symbolic link the sandbox does not follow here.`;
    case 'is-directory':
      return `${shown} is a directory, not a file.`;
    case 'not-directory':
      return `${shown} (or one of its parents) is not a directory.`;
    case 'exist':
      return `${shown} already exists.`;
    case 'read-only':
      return `${shown} is read-only in this sandbox.`;
    default:
      return `The filesystem refused ${shown} (${code}).`;
  }
}

function fail(error, path) {
  if (error instanceof FsError) throw error;
  const code =
    typeof error === 'string' ? error : error && typeof error.message === 'string' ? error.message : String(error);
  throw new FsError(code, path);
}

let cachedRoot = null;

/** Forgets the root handle; called at the start of every tool call. */
export function resetRoot() {
  if (cachedRoot !== null) dispose(cachedRoot);
  cachedRoot = null;
}

/** Closes a WASI handle now (files hold a host descriptor until disposed). */
function dispose(handle) {
  try {
    handle[Symbol.dispose]();
  } catch {
    // Already closed.
  }
}

function rootDescriptor() {
  if (cachedRoot !== null) return cachedRoot;
  const directories = getDirectories();
  const entry = directories.find((item) => item[1] === '/') ?? directories[0];
  if (entry === undefined) throw new FsError('bad-descriptor', '.', 'No working folder was given to the sandbox.');
  cachedRoot = entry[0];
  return cachedRoot;
}

function timestampMs(stamp) {
  return stamp ? Number(stamp.seconds) * 1000 + Math.floor(Number(stamp.nanoseconds) / 1e6) : 0;
}

function toInfo(stat) {
  return {
    type: stat.type,
    size: Number(stat.size),
    links: Number(stat.linkCount),
    mtimeMs: timestampMs(stat.dataModificationTimestamp),
  };
}

/** Facts about a path (`type`, `size`, `links`, `mtimeMs`), or `null` when nothing is there. */
export function statPath(relative) {
  try {
    return toInfo(rootDescriptor().statAt(NO_FOLLOW, relative));
  } catch (error) {
    if (error && (error === 'no-entry' || error.message === 'no-entry')) return null;
    return fail(error, relative);
  }
}

/** Opens a directory for listing; returns a handle with `list()` and `stat(name)`. */
export function openDirectory(relative) {
  let descriptor;
  try {
    descriptor = rootDescriptor().openAt(NO_FOLLOW, relative, { directory: true }, READ);
  } catch (error) {
    return fail(error, relative);
  }
  return {
    list() {
      const entries = [];
      let stream = null;
      try {
        stream = descriptor.readDirectory();
        for (let entry = stream.readDirectoryEntry(); entry; entry = stream.readDirectoryEntry()) {
          entries.push({ name: entry.name, type: entry.type });
        }
      } catch (error) {
        return fail(error, relative);
      } finally {
        if (stream !== null) dispose(stream);
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return entries;
    },
    stat(name) {
      try {
        return toInfo(descriptor.statAt(NO_FOLLOW, name));
      } catch (error) {
        return fail(error, joinPath(relative, name));
      }
    },
    readFile(name, maxBytes) {
      return readFrom(descriptor, name, joinPath(relative, name), maxBytes);
    },
    close() {
      dispose(descriptor);
    },
  };
}

function readFrom(base, name, shownPath, maxBytes = Number.POSITIVE_INFINITY) {
  let file;
  try {
    file = base.openAt(NO_FOLLOW, name, {}, READ);
  } catch (error) {
    return fail(error, shownPath);
  }
  const chunks = [];
  let total = 0;
  try {
    let chunk = FIRST_READ_CHUNK;
    for (;;) {
      const want = Math.min(chunk, maxBytes - total);
      if (want <= 0) break;
      const [bytes, end] = file.read(want, total);
      if (bytes.length > 0) {
        chunks.push(bytes);
        total += bytes.length;
      }
      // A short read of a regular file is its end: no second call just to hear "end of file".
      if (end || bytes.length < want) break;
      chunk = Math.min(READ_CHUNK, chunk * 2);
    }
  } catch (error) {
    return fail(error, shownPath);
  } finally {
    dispose(file);
  }
  if (chunks.length === 1) return chunks[0];
  const all = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return all;
}

/** Reads a whole file (or its first `maxBytes`). */
export function readFileBytes(relative, maxBytes) {
  return readFrom(rootDescriptor(), relative, relative, maxBytes);
}

/** Creates or truncates a file and writes `bytes` to it. */
export function writeFileBytes(relative, bytes) {
  let file;
  try {
    file = rootDescriptor().openAt(NO_FOLLOW, relative, { create: true, truncate: true }, { write: true });
  } catch (error) {
    return fail(error, relative);
  }
  try {
    let offset = 0;
    while (offset < bytes.length) {
      const written = Number(file.write(bytes.subarray(offset, offset + WRITE_CHUNK), offset));
      if (written <= 0)
        throw new FsError('io', relative, `Writing ${displayPath(relative)} stopped after ${offset} bytes.`);
      offset += written;
    }
  } catch (error) {
    return fail(error, relative);
  } finally {
    dispose(file);
  }
}

/** Creates a folder and its missing parents (like `mkdir -p`). */
export function makeDirectories(relative) {
  if (relative === '.') return;
  const segments = relative.split('/');
  let current = '.';
  for (const segment of segments) {
    current = joinPath(current, segment);
    const info = statPath(current);
    if (info === null) {
      try {
        rootDescriptor().createDirectoryAt(current);
      } catch (error) {
        fail(error, current);
      }
    } else if (info.type !== 'directory') {
      throw new FsError(
        'not-directory',
        current,
        `${displayPath(current)} exists and is not a directory, so it cannot hold ${displayPath(relative)}.`,
      );
    }
  }
}
