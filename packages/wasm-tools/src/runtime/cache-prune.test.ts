import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CACHE_MAX_AGE_MS, ComponentRuntimeError, createComponentRuntime, pruneComponentCache } from '../index.js';
import { CACHE_REFRESH_INTERVAL_MS, touchCacheEntry, touchCacheEntrySync } from './cache-prune.js';
import { ensureTranspiled, hashBytes, transpiledDir } from './transpile-cache.js';

// A runtime's cache grew without bound: every component version, worker bundle, Node version and
// set of worker flags added an entry (a transpiled component is about 1 MB) that nothing removed.

const DAY = 24 * 60 * 60 * 1000;
let cacheDir: string;
let outside: string;

beforeEach(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'cache-prune-'));
  outside = await mkdtemp(join(tmpdir(), 'cache-prune-outside-'));
});

afterEach(async () => {
  await rm(cacheDir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

/** Writes a file (and its folders) and sets its mtime `ageMs` in the past. */
async function entry(path: string, ageMs: number, content = 'x'): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
  await age(path, ageMs);
  return path;
}

async function age(path: string, ageMs: number): Promise<void> {
  const time = new Date(Date.now() - ageMs);
  await utimes(path, time, time);
}

async function transpiledEntry(name: string, ageMs: number): Promise<string> {
  const dir = join(cacheDir, 'transpiled', name);
  await entry(join(dir, 'component.js'), 0);
  await entry(join(dir, 'interface.json'), 0, '{"exports":[],"imports":[]}');
  await age(dir, ageMs);
  return dir;
}

describe('pruneComponentCache', () => {
  it('removes entries unused for longer than the limit and keeps the rest', async () => {
    const old = await transpiledEntry('a'.repeat(64), CACHE_MAX_AGE_MS + DAY);
    const recent = await transpiledEntry('b'.repeat(64), CACHE_MAX_AGE_MS - DAY);
    const oldCode = await entry(join(cacheDir, 'worker-code', 'worker.cjs.1.v8-cache'), CACHE_MAX_AGE_MS + 1);
    const newCode = await entry(join(cacheDir, 'worker-code', 'worker.cjs.2.v8-cache'), 1_000);
    const oldThread = await entry(join(cacheDir, 'threads', 'bash-worker-1.mjs'), CACHE_MAX_AGE_MS * 2);
    const report = await pruneComponentCache(cacheDir);
    expect(report.removed.sort()).toEqual([old, oldCode, oldThread].sort());
    expect(report.kept).toBe(2);
    for (const path of [old, oldCode, oldThread]) expect(existsSync(path)).toBe(false);
    for (const path of [recent, newCode]) expect(existsSync(path)).toBe(true);
    expect(await readFile(join(recent, 'component.js'), 'utf8')).toBe('x');
  });

  it("removes a crashed writer's temp files after a day, never a writer's current ones", async () => {
    const staleFile = await entry(join(cacheDir, 'worker-code', 'w.cjs.1.v8-cache.4242.l9x2k.tmp'), DAY + 60_000);
    const liveFile = await entry(join(cacheDir, 'worker-code', 'w.cjs.1.v8-cache.4243.abc123.tmp'), 60_000);
    const staleDir = join(cacheDir, 'transpiled', `${'c'.repeat(64)}.77.0a1b2c3d4e5f.tmp`);
    await entry(join(staleDir, 'component.js'), 0);
    await age(staleDir, DAY * 2);
    const report = await pruneComponentCache(cacheDir);
    expect(report.removed.sort()).toEqual([staleDir, staleFile].sort());
    expect(existsSync(liveFile)).toBe(true);
  });

  it('honours maxAgeMs and a given now; Infinity keeps everything', async () => {
    const dir = await transpiledEntry('d'.repeat(64), 10 * DAY);
    expect((await pruneComponentCache(cacheDir, { maxAgeMs: 20 * DAY })).removed).toEqual([]);
    expect(
      (await pruneComponentCache(cacheDir, { maxAgeMs: Number.POSITIVE_INFINITY, now: Date.now() + 1e12 })).removed,
    ).toEqual([]);
    expect((await pruneComponentCache(cacheDir, { now: Date.now() + 25 * DAY })).removed).toEqual([dir]);
  });

  it('removes a link as a link: what it points to outside the cache is untouched', async () => {
    const precious = await entry(join(outside, 'keep', 'precious.txt'), CACHE_MAX_AGE_MS * 3, 'mine');
    await age(join(outside, 'keep'), CACHE_MAX_AGE_MS * 3);
    await mkdir(join(cacheDir, 'transpiled'), { recursive: true });
    await mkdir(join(cacheDir, 'worker-code'), { recursive: true });
    const dirLink = join(cacheDir, 'transpiled', 'e'.repeat(64));
    const fileLink = join(cacheDir, 'worker-code', 'x.v8-cache');
    await symlink(join(outside, 'keep'), dirLink);
    await symlink(precious, fileLink);
    const report = await pruneComponentCache(cacheDir, { now: Date.now() + CACHE_MAX_AGE_MS * 2 });
    expect(report.removed.sort()).toEqual([dirLink, fileLink].sort());
    expect(await readFile(precious, 'utf8')).toBe('mine');
  });

  it('never touches files outside the pruned folders, and a missing cache folder is no error', async () => {
    const built = await entry(join(cacheDir, 'components', 'f.wasm'), CACHE_MAX_AGE_MS * 4);
    const loose = await entry(join(cacheDir, 'notes.txt'), CACHE_MAX_AGE_MS * 4);
    expect((await pruneComponentCache(cacheDir)).removed).toEqual([]);
    expect(existsSync(built) && existsSync(loose)).toBe(true);
    expect(await pruneComponentCache(join(cacheDir, 'absent'))).toEqual({ removed: [], kept: 0 });
  });

  it('two processes pruning the same cache at once remove each entry once and never throw', async () => {
    const dirs = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        transpiledEntry(index.toString(16).padStart(64, '0'), CACHE_MAX_AGE_MS * 2),
      ),
    );
    const [first, second] = await Promise.all([pruneComponentCache(cacheDir), pruneComponentCache(cacheDir)]);
    expect(first.removed.length + second.removed.length).toBe(dirs.length);
    expect(new Set([...first.removed, ...second.removed]).size).toBe(dirs.length);
    for (const dir of dirs) expect(existsSync(dir)).toBe(false);
  });
});

describe('marking entries used', () => {
  it('a cache hit of ensureTranspiled refreshes the entry, so a component in use is never pruned', async () => {
    const bytes = new Uint8Array([0, 97, 115, 109]);
    // A fake entry under the hash the hit looks for: ensureTranspiled's key of these bytes.
    const first = await ensureTranspiled(bytes, cacheDir, 'x').catch((error: unknown) => error);
    expect(first).toBeInstanceOf(ComponentRuntimeError); // not a component: nothing cached
    const dir = await transpiledEntryFor(bytes);
    await age(dir, CACHE_MAX_AGE_MS + DAY);
    const hit = await ensureTranspiled(bytes, cacheDir, 'x');
    expect(hit.cacheHit).toBe(true);
    expect(Date.now() - (await stat(dir)).mtimeMs).toBeLessThan(DAY);
    expect((await pruneComponentCache(cacheDir)).removed).toEqual([]);
  });

  it('refreshes a mark at most once a day', async () => {
    const path = await entry(join(cacheDir, 'worker-code', 'a.v8-cache'), DAY / 2);
    const before = (await stat(path)).mtimeMs;
    await touchCacheEntry(path);
    touchCacheEntrySync(path);
    expect((await stat(path)).mtimeMs).toBe(before);
    await age(path, DAY + 1_000);
    touchCacheEntrySync(path);
    expect(Date.now() - (await stat(path)).mtimeMs).toBeLessThan(60_000);
    await touchCacheEntry(join(cacheDir, 'missing')); // no throw
  });
});

describe('createComponentRuntime', () => {
  it('prunes its cache folder in the background, once per process', async () => {
    const old = await transpiledEntry('9'.repeat(64), CACHE_MAX_AGE_MS + DAY);
    const runtime = createComponentRuntime({ cacheDir });
    try {
      await vi.waitFor(() => expect(existsSync(old)).toBe(false), { timeout: 10_000, interval: 20 });
      const again = await transpiledEntry('8'.repeat(64), CACHE_MAX_AGE_MS + DAY);
      const second = createComponentRuntime({ cacheDir });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(existsSync(again)).toBe(true);
      await second.close();
    } finally {
      await runtime.close();
    }
  });

  it('keeps everything with cacheMaxAgeMs: Infinity, and refuses a non-positive one', async () => {
    const other = await mkdtemp(join(tmpdir(), 'cache-prune-keep-'));
    try {
      const old = join(other, 'transpiled', 'f'.repeat(64));
      await entry(join(old, 'component.js'), 0);
      await age(old, CACHE_MAX_AGE_MS * 5);
      const runtime = createComponentRuntime({ cacheDir: other, cacheMaxAgeMs: Number.POSITIVE_INFINITY });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(existsSync(old)).toBe(true);
      await runtime.close();
    } finally {
      await rm(other, { recursive: true, force: true });
    }
    for (const value of [0, -1, Number.NaN]) {
      expect(() => createComponentRuntime({ cacheDir, cacheMaxAgeMs: value })).toThrow(/cacheMaxAgeMs/);
    }
  });
});

/** Creates the folder ensureTranspiled looks for for `bytes`, as a finished entry. */
async function transpiledEntryFor(bytes: Uint8Array): Promise<string> {
  const dir = transpiledDir(cacheDir, hashBytes(bytes));
  await entry(join(dir, 'component.js'), 0);
  await entry(join(dir, 'interface.json'), 0, '{"exports":[],"imports":[]}');
  return dir;
}

describe('a live runtime keeps what it prepared', () => {
  it('re-marks its prepared components while it runs, so a long-running host never loses them to a prune', async () => {
    const { buildFixture } = await import('./test-fixtures.js');
    const built = await buildFixture('function-basic', 'function-tool');
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const runtime = createComponentRuntime({ cacheDir, cacheMaxAgeMs: Number.POSITIVE_INFINITY });
    try {
      const component = await runtime.prepare({ path: built.path });
      // Months later, by the clock of the files: no call touched it since.
      await age(component.dir, CACHE_MAX_AGE_MS + DAY);
      vi.advanceTimersByTime(CACHE_REFRESH_INTERVAL_MS);
      await vi.waitFor(async () => expect(Date.now() - (await stat(component.dir)).mtimeMs).toBeLessThan(DAY), {
        timeout: 5_000,
        interval: 20,
      });
      expect((await pruneComponentCache(cacheDir)).removed).not.toContain(component.dir);
    } finally {
      vi.useRealTimers();
      await runtime.close();
    }
  }, 120_000);
});
