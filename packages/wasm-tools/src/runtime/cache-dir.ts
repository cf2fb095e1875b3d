import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Walks up from this file to the package root (the folder with `package.json`), or undefined. */
function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

/**
 * A cache folder under the OS temp dir that only this user can write: the cache holds JS that
 * worker processes import, so a folder another user could plant files in must never be used.
 */
function privateTempCacheDir(): string {
  const uid = process.getuid?.() ?? 0;
  const dir = join(tmpdir(), `boxagnts-wasm-${uid}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const info = lstatSync(dir);
    if (info.isDirectory() && !info.isSymbolicLink() && (process.getuid === undefined || info.uid === uid)) return dir;
  } catch {
    // Fall through to a fresh private folder.
  }
  return mkdtempSync(join(tmpdir(), 'boxagnts-wasm-'));
}

/**
 * The default on-disk cache for built and transpiled components: `node_modules/.cache/boxagnts-wasm`
 * under this package when the package has a `node_modules` folder (a workspace checkout), else a
 * per-user folder `<os tmpdir>/boxagnts-wasm-<uid>` (mode 0700).
 */
export function defaultCacheDir(): string {
  const root = packageRoot();
  if (root !== undefined && existsSync(join(root, 'node_modules'))) {
    return join(root, 'node_modules', '.cache', 'boxagnts-wasm');
  }
  return privateTempCacheDir();
}

/**
 * Writes a file atomically: a temp file beside it, then `rename`, so concurrent writers (test
 * workers, pool children) never see a half-written file. The last writer wins; contents are
 * keyed by hash, so every writer writes the same bytes.
 */
export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Publishes a directory atomically: fills a temp directory with `files`, then renames it to
 * `target`. If another writer got there first, its (identical, hash-keyed) directory is kept.
 */
export async function writeDirectoryAtomic(target: string, files: Record<string, Uint8Array>): Promise<void> {
  const temp = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    for (const [name, bytes] of Object.entries(files)) {
      const path = join(temp, name);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, bytes);
    }
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(temp, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}
