// The built worker runs through worker-cached-entry.cjs with V8's code cache for the bundle, kept
// in the runtime's cache folder (worker-pool.ts, workerLaunch). These tests fork the bundle as
// the build writes it: the cache is written after the first call, reused by the next worker
// without being rewritten, and a corrupt one is ignored (the call still runs) and replaced.
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain-JS build script without declarations
import { bundleWorkers, CACHED_ENTRY } from '../../scripts/bundle-workers.mjs';
import { createComponentRuntime } from './component-runtime.js';
import type { BuiltComponent } from './componentize.js';
import { buildFixture, PACKAGE_DIR, tempDir, toolContext } from './test-fixtures.js';
import { CACHED_ENTRY as POOL_CACHED_ENTRY, workerLaunch } from './worker-pool.js';

describe('the worker bundle code cache', () => {
  let bundleDir: string;
  let cacheDir: string;
  let basic: BuiltComponent;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    await mkdir(join(PACKAGE_DIR, 'node_modules'), { recursive: true });
    bundleDir = await mkdtemp(join(PACKAGE_DIR, 'node_modules', '.worker-cache-test-'));
    cleanups.push(() => rm(bundleDir, { recursive: true, force: true }));
    const cache = await tempDir('worker-cache');
    cleanups.push(cache.remove);
    cacheDir = cache.path;
    [, basic] = await Promise.all([bundleWorkers(bundleDir), buildFixture('function-basic', 'function-tool')]);
  }, 120_000);

  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  /**
   * A new runtime (so a new worker) that runs one call of the echo tool, then closes. The worker writes
   * its cache after it answered and `close()` kills it at once, so `beforeClose` keeps the runtime (and
   * its worker) open while a test waits for that write: on a loaded machine the kill can come first.
   */
  async function echoOnce(text: string, beforeClose?: () => Promise<unknown>): Promise<string> {
    const runtime = createComponentRuntime({ workers: 1, cacheDir, workerPath: join(bundleDir, 'worker.cjs') });
    try {
      const tools = await runtime.loadFunctionComponent({ path: basic.path });
      const echo = tools.find((tool) => tool.name === 'echo');
      if (echo === undefined) throw new Error('no echo tool');
      const result = await echo.execute({ text }, toolContext(cacheDir));
      await beforeClose?.();
      return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    } finally {
      await runtime.close();
    }
  }

  /** Waits until the cache file holds something other than `old` (the worker's write, renamed over it). */
  async function replaced(path: string, old: Buffer): Promise<Buffer> {
    for (let tries = 0; tries < 200; tries++) {
      const now = await readFile(path).catch(() => old);
      if (!now.equals(old)) return now;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return old;
  }

  async function cacheFile(): Promise<string> {
    const names = (await readdir(join(cacheDir, 'worker-code'))).filter((name) => name.endsWith('.v8-cache'));
    expect(names).toHaveLength(1);
    return join(cacheDir, 'worker-code', names[0] as string);
  }

  /** Waits for the worker's write (it runs after the answer, in the worker). */
  async function settled(path: string): Promise<Awaited<ReturnType<typeof stat>>> {
    for (let tries = 0; tries < 100; tries++) {
      const info = await stat(path).catch(() => undefined);
      if (info !== undefined && info.size > 64) return info;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no code cache at ${path}`);
  }

  it('copies the entry beside the bundles', async () => {
    expect(CACHED_ENTRY).toBe(POOL_CACHED_ENTRY);
    expect((await readdir(bundleDir)).sort()).toEqual([CACHED_ENTRY, 'worker-http.mjs', 'worker.cjs'].sort());
  });

  it('writes the cache after the first call and reuses it without rewriting it', async () => {
    let written: Awaited<ReturnType<typeof stat>> | undefined;
    expect(
      await echoOnce('first', async () => {
        await mkdir(join(cacheDir, 'worker-code'), { recursive: true });
        for (
          let tries = 0;
          tries < 200 && !(await readdir(join(cacheDir, 'worker-code'))).some((name) => name.endsWith('.v8-cache'));
          tries++
        ) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        written = await settled(await cacheFile());
      }),
    ).toBe('first');
    const path = await cacheFile();
    if (written === undefined) throw new Error('no code cache written');
    expect(await echoOnce('second')).toBe('second');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await stat(path);
    // Rewritten means a new file renamed over it (another inode): V8 accepted the cache.
    expect(after.ino).toBe(written.ino);
    expect(after.mtimeMs).toBe(written.mtimeMs);
  }, 60_000);

  it('a runtime closed right after its first call still gets its cache written (close lets an idle worker finish)', async () => {
    const fresh = await tempDir('worker-cache-close');
    cleanups.push(fresh.remove);
    for (let round = 0; round < 3; round++) {
      const runtime = createComponentRuntime({
        workers: 1,
        cacheDir: fresh.path,
        workerPath: join(bundleDir, 'worker.cjs'),
      });
      const tools = await runtime.loadFunctionComponent({ path: basic.path });
      const echo = tools.find((tool) => tool.name === 'echo');
      await echo?.execute({ text: 'once' }, toolContext(fresh.path));
      await runtime.close();
      const folder = join(fresh.path, 'worker-code');
      let names: string[] = [];
      for (let tries = 0; tries < 100 && !names.some((name) => name.endsWith('.v8-cache')); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        names = await readdir(folder).catch(() => []);
      }
      expect(names.filter((name) => name.endsWith('.v8-cache'))).toHaveLength(1);
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);

  it('ignores a corrupt cache, still runs the call, and replaces the cache', async () => {
    const path = await cacheFile();
    const garbage = Buffer.from('not a V8 code cache '.repeat(40));
    await writeFile(path, garbage);
    let fresh: Buffer = garbage;
    expect(
      await echoOnce('despite garbage', async () => {
        fresh = await replaced(path, garbage);
      }),
    ).toBe('despite garbage');
    expect(fresh.equals(garbage)).toBe(false);
    expect(fresh.length).toBeGreaterThan(1024);
    // A truncated cache likewise.
    const truncated = fresh.subarray(0, 100);
    await writeFile(path, truncated);
    let after: Buffer = truncated;
    expect(
      await echoOnce('despite truncation', async () => {
        after = await replaced(path, truncated);
      }),
    ).toBe('despite truncation');
    expect(after.length).toBeGreaterThan(1024);
  }, 60_000);

  it('forks through the entry only for a CommonJS bundle with the entry beside it and a cache folder', async () => {
    const bundle = join(bundleDir, 'worker.cjs');
    const flags = ['--max-old-space-size=512'];
    const launch = workerLaunch(bundle, flags, cacheDir);
    expect(launch.modulePath).toBe(join(bundleDir, CACHED_ENTRY));
    expect(launch.args[0]).toBe(bundle);
    expect(launch.args[1]?.startsWith(join(cacheDir, 'worker-code', 'worker.cjs.'))).toBe(true);
    // Other flags or another bundle: another cache file (V8 checks only the source's length).
    expect(workerLaunch(bundle, ['--max-old-space-size=1024'], cacheDir).args[1]).not.toBe(launch.args[1]);
    const other = await mkdtemp(join(PACKAGE_DIR, 'node_modules', '.worker-cache-test-'));
    cleanups.push(() => rm(other, { recursive: true, force: true }));
    const source = await readFile(bundle, 'utf8');
    await writeFile(join(other, 'worker.cjs'), `${source}\n// another bundle\n`);
    expect(workerLaunch(join(other, 'worker.cjs'), flags, cacheDir)).toEqual({
      modulePath: join(other, 'worker.cjs'),
      args: [],
    });
    await writeFile(join(other, CACHED_ENTRY), await readFile(join(bundleDir, CACHED_ENTRY)));
    const otherLaunch = workerLaunch(join(other, 'worker.cjs'), flags, cacheDir);
    expect(otherLaunch.modulePath).toBe(join(other, CACHED_ENTRY));
    expect(otherLaunch.args[1]).not.toBe(launch.args[1]);
    // No cache folder, or the ES module sources: forked as they are.
    expect(workerLaunch(bundle, flags)).toEqual({ modulePath: bundle, args: [] });
    const sources = join(PACKAGE_DIR, 'src', 'runtime', 'worker.mjs');
    expect(workerLaunch(sources, flags, cacheDir)).toEqual({ modulePath: sources, args: [] });
  });
});
