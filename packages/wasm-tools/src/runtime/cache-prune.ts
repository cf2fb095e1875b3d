import { randomBytes } from 'node:crypto';
import { statSync, utimesSync } from 'node:fs';
import { lstat, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Default {@link PruneCacheOptions.maxAgeMs}: an entry no runtime used for 30 days is removed. */
export const CACHE_MAX_AGE_MS = 30 * DAY_MS;

/** An entry's mark of use (its mtime) is refreshed at most this often, so a hit costs one `stat`. */
const TOUCH_AFTER_MS = DAY_MS;

/**
 * How often a live runtime re-marks the components it has prepared: far below the prune age, so
 * a runtime that runs for months keeps what its workers may load again.
 */
export const CACHE_REFRESH_INTERVAL_MS = 6 * 60 * 60 * 1000;

/** A writer's temp file or folder (`<name>.<pid>.<random>.tmp`) this old is a crashed writer's leftover. */
const STALE_TEMP_MS = DAY_MS;

/**
 * The cache's folders whose entries are pruned: transpiled components (each folder holds the glue,
 * its core modules and the worker's code caches for it), the component worker's V8 code caches
 * (one per worker bundle, Node binary and flags), and the worker-thread scripts bundled in a
 * source checkout. `components/` (built JS components, whose paths callers keep) is not pruned.
 */
const PRUNED_FOLDERS = ['transpiled', 'worker-code', 'threads'] as const;

/** Options of {@link pruneComponentCache}. */
export interface PruneCacheOptions {
  /** Entries not used for this long are removed, in ms. Default {@link CACHE_MAX_AGE_MS}. */
  maxAgeMs?: number;
  /** The current time (tests). Default `Date.now()`. */
  now?: number;
}

/** What {@link pruneComponentCache} did. */
export interface PruneCacheReport {
  /** Paths removed (unused entries and stale temp files). */
  removed: string[];
  /** Entries kept. */
  kept: number;
}

/**
 * Marks a cache entry (file or folder) used: sets its mtime to now when it is older than a day.
 * Never throws (a read-only cache is used as it is).
 */
export async function touchCacheEntry(path: string, now = Date.now()): Promise<void> {
  try {
    const info = await stat(path);
    if (now - info.mtimeMs < TOUCH_AFTER_MS) return;
    const time = new Date(now);
    await utimes(path, time, time);
  } catch {
    // Missing or read-only: nothing to mark.
  }
}

/** {@link touchCacheEntry}, synchronously (where a worker is forked). */
export function touchCacheEntrySync(path: string, now = Date.now()): void {
  try {
    if (now - statSync(path).mtimeMs < TOUCH_AFTER_MS) return;
    const time = new Date(now);
    utimesSync(path, time, time);
  } catch {
    // Missing or read-only: nothing to mark.
  }
}

const TEMP_NAME = /\.\d+\.[0-9a-z]+\.tmp$/;

/**
 * Removes what no runtime has used for `maxAgeMs` (30 days by default) from a component cache
 * folder: transpiled components, worker code caches and bundled thread scripts, judged by their
 * mtime, which every use refreshes (at most once a day); and temp files or folders left by a
 * crashed writer for more than a day. A folder entry is first renamed aside, so a reader sees it
 * whole or not at all, then deleted. Links are removed as links, never followed. Files outside
 * those folders are never touched. Errors on one entry (a permission, a race with another process
 * pruning the same cache) skip that entry; the function never throws.
 *
 * `createComponentRuntime` runs this in the background once per process and cache folder
 * (its `cacheMaxAgeMs` option; `Infinity` turns it off).
 */
export async function pruneComponentCache(
  cacheDir: string,
  options: PruneCacheOptions = {},
): Promise<PruneCacheReport> {
  const maxAgeMs = options.maxAgeMs ?? CACHE_MAX_AGE_MS;
  const now = options.now ?? Date.now();
  const report: PruneCacheReport = { removed: [], kept: 0 };
  if (!(maxAgeMs > 0) || maxAgeMs === Number.POSITIVE_INFINITY) return report;
  for (const folder of PRUNED_FOLDERS) {
    const parent = join(cacheDir, folder);
    let names: string[];
    try {
      names = await readdir(parent);
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(parent, name);
      try {
        const info = await lstat(path);
        const age = now - info.mtimeMs;
        const stale = TEMP_NAME.test(name) ? age > STALE_TEMP_MS : age > maxAgeMs;
        if (!stale) {
          report.kept++;
          continue;
        }
        if (info.isDirectory()) {
          // Aside first: a process that reads the entry now finds it whole or absent.
          const aside = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
          await rename(path, aside);
          await rm(aside, { recursive: true, force: true });
        } else {
          // A file or a link: removed itself, a link's target untouched.
          await rm(path, { force: true });
        }
        report.removed.push(path);
      } catch {
        // Gone already, or not ours to remove: leave it.
      }
    }
  }
  return report;
}

const prunedThisProcess = new Set<string>();

/**
 * Starts {@link pruneComponentCache} for `cacheDir` once per process, after the current work (a
 * timer that does not keep the process alive), so creating a runtime never waits for it.
 */
export function pruneCacheInBackground(cacheDir: string, maxAgeMs: number): Promise<PruneCacheReport> | undefined {
  if (maxAgeMs === Number.POSITIVE_INFINITY || prunedThisProcess.has(cacheDir)) return undefined;
  prunedThisProcess.add(cacheDir);
  return new Promise((resolve) => {
    setTimeout(() => resolve(pruneComponentCache(cacheDir, { maxAgeMs })), 0).unref();
  });
}
