import { stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isComponentRuntimeError } from './component-runtime-error.js';
import { buildJsComponent, hashJsComponent, packageWitPath } from './componentize.js';
import { PACKAGE_DIR, tempDir, WIT_DIR } from './test-fixtures.js';

const GUEST = `export const tool = {
  describe() { return [{ name: 'noop', description: 'Nothing.', inputSchema: '{}', permission: 'read-only', env: [] }]; },
  run() { return { content: 'ok', images: [], isError: false, metadata: null }; },
};`;

describe('buildJsComponent', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('builds a component once and serves it from the cache afterwards', async () => {
    const cache = await tempDir('build-cache');
    cleanups.push(cache.remove);
    const first = await buildJsComponent({
      source: GUEST,
      witPath: WIT_DIR,
      world: 'function-tool',
      cacheDir: cache.path,
    });
    expect(first.path).toBe(join(cache.path, 'components', `${first.hash}.wasm`));
    expect(Array.from(first.bytes.subarray(0, 8))).toEqual([0, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00]);
    const before = await stat(first.path);
    const second = await buildJsComponent({
      source: GUEST,
      witPath: WIT_DIR,
      world: 'function-tool',
      cacheDir: cache.path,
    });
    expect(second.hash).toBe(first.hash);
    expect((await stat(second.path)).mtimeMs).toBe(before.mtimeMs);
    const other = await hashJsComponent({ source: `${GUEST}\n// changed`, witPath: WIT_DIR, world: 'function-tool' });
    expect(other.hash).not.toBe(first.hash);
    const otherWorld = await hashJsComponent({ source: GUEST, witPath: WIT_DIR, world: 'command-tool' });
    expect(otherWorld.hash).not.toBe(first.hash);
  });

  it('keys the cache on relative imports of a source file too', async () => {
    const dir = await tempDir('build-imports');
    cleanups.push(dir.remove);
    const entry = join(dir.path, 'entry.js');
    await writeFile(entry, `import { text } from './helper.js';\n${GUEST.replace("'ok'", 'text')}`);
    await writeFile(join(dir.path, 'helper.js'), "export const text = 'one';");
    const options = { sourcePath: entry, witPath: WIT_DIR, world: 'function-tool' };
    const first = await hashJsComponent(options);
    expect(first.source).toContain("from './helper.js'");
    expect((await hashJsComponent(options)).hash).toBe(first.hash);
    await writeFile(join(dir.path, 'helper.js'), "export const text = 'two';");
    const second = await hashJsComponent(options);
    expect(second.hash).not.toBe(first.hash);
  });

  it('asks for exactly one of source and sourcePath', async () => {
    const error = await buildJsComponent({ witPath: WIT_DIR, world: 'function-tool' }).catch(
      (caught: unknown) => caught,
    );
    expect(isComponentRuntimeError(error)).toBe(true);
    expect((error as Error).message).toBe('buildJsComponent needs exactly one of `source` or `sourcePath`.');
  });

  it('reports a guest that does not build as a typed error', async () => {
    const cache = await tempDir('build-broken');
    cleanups.push(cache.remove);
    const error = await buildJsComponent({
      source: 'export const tool = {',
      witPath: WIT_DIR,
      world: 'function-tool',
      cacheDir: cache.path,
    }).catch((caught: unknown) => caught);
    expect(isComponentRuntimeError(error)).toBe(true);
    expect((error as { reason: string }).reason).toBe('build-failed');
    expect((error as Error).message).toContain(
      'Building a component from the given source (world function-tool) failed',
    );
  });
});

describe('the default WIT', () => {
  it("uses the installed package's wit/ when no witPath is given (the README example)", async () => {
    expect(packageWitPath()).toBe(join(PACKAGE_DIR, 'wit'));
    const implicit = await hashJsComponent({ source: GUEST, world: 'function-tool' });
    const explicit = await hashJsComponent({ source: GUEST, witPath: WIT_DIR, world: 'function-tool' });
    expect(implicit.hash).toBe(explicit.hash);
    // The README's other spelling: the WIT folder resolved through the package's exports.
    const resolved = fileURLToPath(import.meta.resolve('@boxagnts/wasm-tools/wit/function-tool.wit'));
    expect(dirname(resolved)).toBe(WIT_DIR);
  });
});
