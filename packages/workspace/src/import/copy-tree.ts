import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Limits of one copied folder (a skill or a site). */
export interface CopyLimits {
  maxFiles: number;
  maxBytes: number;
  maxDepth: number;
}

/** Skills are small: at most 1,000 files, 50 MiB and 16 levels. */
export const SKILL_COPY_LIMITS: CopyLimits = { maxFiles: 1000, maxBytes: 50 * 1024 * 1024, maxDepth: 16 };
/** Sites: at most 20,000 files, 1 GiB and 32 levels. */
export const SITE_COPY_LIMITS: CopyLimits = { maxFiles: 20_000, maxBytes: 1024 * 1024 * 1024, maxDepth: 32 };

/** A file of a folder to copy, relative to the folder. */
export interface TreeFile {
  path: string;
  size: number;
}

/** What a folder holds, with what was left out (links, devices, names with separators). */
export interface TreeListing {
  files: TreeFile[];
  directories: string[];
  skipped: string[];
}

/**
 * Lists a folder of the source for copying, without following any symbolic link (a link inside a
 * skill could point at the host's files) and within the limits; a folder over a limit is refused.
 */
export async function listTree(root: string, limits: CopyLimits): Promise<TreeListing | string> {
  const files: TreeFile[] = [];
  const directories: string[] = [];
  const skipped: string[] = [];
  let bytes = 0;
  const walk = async (relative: string, depth: number): Promise<string | undefined> => {
    if (depth > limits.maxDepth) return `nests more than ${limits.maxDepth} folders deep`;
    const entries = await readdir(join(root, relative), { withFileTypes: true });
    for (const entry of entries) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isSymbolicLink()) skipped.push(`${path} (a symbolic link)`);
      else if (entry.isDirectory()) {
        directories.push(path);
        const problem = await walk(path, depth + 1);
        if (problem !== undefined) return problem;
      } else if (entry.isFile()) {
        const stat = await lstat(join(root, path));
        bytes += stat.size;
        files.push({ path, size: stat.size });
        if (files.length > limits.maxFiles) return `holds more than ${limits.maxFiles} files`;
        if (bytes > limits.maxBytes) return `holds more than ${limits.maxBytes} bytes`;
      } else skipped.push(`${path} (not a regular file)`);
    }
    return undefined;
  };
  const problem = await walk('', 0);
  return problem ?? { files, directories, skipped };
}

/** True when the two folders hold the same files with the same bytes (links and others ignored). */
export async function sameTree(source: string, listing: TreeListing, target: string): Promise<boolean> {
  for (const file of listing.files) {
    const theirs = await lstat(join(target, file.path)).catch(() => undefined);
    if (theirs === undefined || !theirs.isFile() || theirs.size !== file.size) return false;
    const [a, b] = await Promise.all([readFile(join(source, file.path)), readFile(join(target, file.path))]);
    if (!a.equals(b)) return false;
  }
  return true;
}

/**
 * Copies a listed folder to `target` (which must not exist) through a staging folder beside it,
 * renamed into place at the end: a failure leaves no half-copied folder. Files are re-checked with
 * `lstat` as they are read, so one swapped for a link meanwhile is not followed.
 */
export async function copyTreeStaged(
  source: string,
  listing: TreeListing,
  target: string,
  parent: string,
): Promise<void> {
  await mkdir(parent, { recursive: true });
  const staging = join(parent, `.boxagnts-import-${randomBytes(6).toString('hex')}`);
  try {
    await mkdir(staging);
    for (const directory of listing.directories) await mkdir(join(staging, directory), { recursive: true });
    for (const file of listing.files) {
      const stat = await lstat(join(source, file.path));
      if (!stat.isFile()) throw new Error(`${file.path} changed while it was copied (it is no longer a regular file)`);
      await writeFile(join(staging, file.path), await readFile(join(source, file.path)), { flag: 'wx' });
    }
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}
