import { constants } from 'node:fs';
import { type FileHandle, open, readlink, realpath } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';

/** Why {@link openConfinedFile} refused a file. */
export type ConfinedFileProblem = 'missing' | 'outside' | 'hard-link' | 'not-a-file' | 'too-large' | 'unreadable';

/** Options of {@link openConfinedFile} and {@link readConfinedFile}. */
export interface ConfinedFileOptions {
  /** The folder whose real path the file's real path must stay inside (links may point anywhere within). */
  within: string;
  /**
   * Refuse a file with more than one hard link. Set it where someone else can write (the agents'
   * root): a second name of a file outside is the way its content gets in. Default false.
   */
  refuseHardLinks?: boolean;
  /** Largest file accepted, in bytes (default unbounded). */
  maxBytes?: number;
}

/** An opened file, or why it was not opened. */
export type ConfinedOpen =
  | { ok: true; handle: FileHandle; realPath: string; size: number }
  | { ok: false; problem: ConfinedFileProblem; message: string };

/** A file's text, or why it was not read. */
export type ConfinedRead =
  | { ok: true; text: string; realPath: string }
  | { ok: false; problem: ConfinedFileProblem; message: string };

/** True when `path` is `folder` or inside it (both real, absolute paths). */
export function isInsideFolder(folder: string, path: string): boolean {
  const rest = relative(folder, path);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

const refuse = (problem: ConfinedFileProblem, message: string): ConfinedOpen => ({ ok: false, problem, message });

/** Where the kernel says an open descriptor's file is, when it can say (Linux `/proc`). */
async function openedPath(handle: FileHandle): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  return readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
}

/**
 * Opens a file the host reads as instructions (AGENTS.md, a skill, a config, an output style) only
 * when its real path stays inside `within`: a symbolic link out of the folder is refused, and so
 * (with `refuseHardLinks`) is a file with a second hard link. The last path component is opened
 * without following links, and on Linux the opened descriptor's own path is checked again, so a
 * folder swapped for a link between the check and the open cannot redirect the read. Never throws.
 */
export async function openConfinedFile(path: string, options: ConfinedFileOptions): Promise<ConfinedOpen> {
  let boundary: string;
  let real: string;
  try {
    boundary = await realpath(options.within);
    real = await realpath(path);
  } catch (error) {
    return code(error) === 'ENOENT' || code(error) === 'ENOTDIR'
      ? refuse('missing', `${path} does not exist (ENOENT)`)
      : refuse('unreadable', `${path} cannot be resolved (${code(error) ?? String(error)})`);
  }
  const outside = `${path} is a link to ${real}, outside ${boundary}; it is not read. Replace the link with the file itself`;
  if (!isInsideFolder(boundary, real)) return refuse('outside', outside);
  let handle: FileHandle;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (code(error) === 'ELOOP') return refuse('outside', `${path} became a link while it was opened; it is not read`);
    if (code(error) === 'ENOENT') return refuse('missing', `${path} does not exist (ENOENT)`);
    return refuse('unreadable', `${path} cannot be opened (${code(error) ?? String(error)})`);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return await closing(handle, refuse('not-a-file', `${path} is not a regular file`));
    if (options.refuseHardLinks === true && stats.nlink > 1) {
      return await closing(
        handle,
        refuse(
          'hard-link',
          `${path} has ${stats.nlink} hard links; another name of it may be a file outside, so it is not read. Replace it with a copy of its own`,
        ),
      );
    }
    if (options.maxBytes !== undefined && stats.size > options.maxBytes) {
      return await closing(
        handle,
        refuse('too-large', `${path} is ${stats.size} bytes, more than the ${options.maxBytes} read`),
      );
    }
    const opened = await openedPath(handle);
    if (opened !== undefined && !isInsideFolder(boundary, opened))
      return await closing(handle, refuse('outside', outside));
    return { ok: true, handle, realPath: real, size: stats.size };
  } catch (error) {
    return closing(handle, refuse('unreadable', `${path} cannot be read (${code(error) ?? String(error)})`));
  }
}

async function closing<T>(handle: FileHandle, value: T): Promise<T> {
  await handle.close().catch(() => undefined);
  return value;
}

/**
 * Reads a whole file as UTF-8 under the rules of {@link openConfinedFile}. Never throws.
 *
 * @example
 * const read = await readConfinedFile('/ws/root/AGENTS.md', { within: '/ws/root', refuseHardLinks: true });
 * if (!read.ok) console.warn(read.message);
 */
export async function readConfinedFile(path: string, options: ConfinedFileOptions): Promise<ConfinedRead> {
  const opened = await openConfinedFile(path, options);
  if (!opened.ok) return opened;
  try {
    // Read through the checked descriptor; a size cap bounds what a growing file can add.
    const limit = options.maxBytes;
    const buffer = await opened.handle.readFile();
    if (limit !== undefined && buffer.length > limit) {
      return { ok: false, problem: 'too-large', message: `${path} grew past the ${limit} bytes read` };
    }
    return { ok: true, text: buffer.toString('utf8'), realPath: opened.realPath };
  } catch (error) {
    return { ok: false, problem: 'unreadable', message: `${path} cannot be read (${code(error) ?? String(error)})` };
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}
