import { randomBytes } from 'node:crypto';
import { type FileHandle, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The file operations {@link writeFileAtomic} uses; tests replace one to simulate a crash. */
export interface AtomicWriteOperations {
  /** Writes all of `data` to the open temporary file. */
  write(handle: FileHandle, data: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** File mode; default: the existing file's mode, else 0o644. Applied with fchmod, so umask does not loosen or tighten it. */
  mode?: number;
  /** Replaces file operations (for crash tests). */
  operations?: Partial<AtomicWriteOperations>;
}

const DEFAULT_OPERATIONS: AtomicWriteOperations = {
  write: async (handle, data) => {
    await handle.writeFile(data, 'utf8');
  },
  rename,
};

async function existingMode(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o777;
  } catch {
    return undefined;
  }
}

async function syncDirectory(directory: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch {
    // Some platforms cannot open or fsync a directory; the rename is still atomic there.
  } finally {
    await handle?.close();
  }
}

/**
 * Replaces a file so that readers and a crash see either the old or the new content, never a mix:
 * writes a temporary file in the same directory, fsyncs it, renames it over the target and fsyncs the
 * directory. On any failure the temporary file is removed and the old file is left as it was.
 *
 * @example
 * await writeFileAtomic('/ws/.boxagnts/secrets.json', text, { mode: 0o600 });
 */
export async function writeFileAtomic(path: string, data: string, options: AtomicWriteOptions = {}): Promise<void> {
  const operations = { ...DEFAULT_OPERATIONS, ...options.operations };
  const mode = options.mode ?? (await existingMode(path)) ?? 0o644;
  const directory = dirname(path);
  const temporary = join(directory, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  // 0o600 at creation so no other user can open the temporary file before fchmod sets the final mode.
  const handle = await open(temporary, 'wx', 0o600);
  try {
    try {
      await operations.write(handle, data);
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await operations.rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await syncDirectory(directory);
}
