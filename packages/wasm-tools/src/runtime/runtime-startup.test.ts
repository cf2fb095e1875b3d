// Start-up of the component runtime: the describe cache, V8's code cache for the JS glue, and the
// pool compiling a component ahead of its first call.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resultText } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createComponentRuntime } from './component-runtime.js';
import type { BuiltComponent } from './componentize.js';
import { buildFixture, tempDir, toolContext } from './test-fixtures.js';

interface Glue {
  instantiate: (...args: unknown[]) => unknown;
  saveCodeCache: () => Promise<void>;
}
type LoadGlue = (dir: string, entry: string) => Promise<Glue>;

const codeCacheUrl = new URL('./worker-code-cache.mjs', import.meta.url).href;

describe('component runtime start-up', () => {
  let basic: BuiltComponent;
  let cache: { path: string; remove: () => Promise<void> };
  let root: { path: string; remove: () => Promise<void> };

  beforeAll(async () => {
    basic = await buildFixture('function-basic', 'function-tool');
    cache = await tempDir('startup-cache');
    root = await tempDir('startup-root');
  });

  afterAll(async () => {
    await cache.remove();
    await root.remove();
  });

  async function transpiledDir(): Promise<string> {
    const [entry] = await readdir(join(cache.path, 'transpiled'));
    if (entry === undefined) throw new Error('nothing transpiled');
    return join(cache.path, 'transpiled', entry);
  }

  it('keeps describe() beside the transpiled component and loads from it, or describes again when it is damaged', async () => {
    const first = createComponentRuntime({ cacheDir: cache.path, workers: 1 });
    const described = (await first.loadFunctionComponent({ path: basic.path })).map((tool) => tool.name);
    await first.close();
    const dir = await transpiledDir();
    const kept = JSON.parse(await readFile(join(dir, 'describe.json'), 'utf8')) as Array<{ name: string }>;
    expect(kept.map((descriptor) => descriptor.name)).toEqual(described);

    // A cache entry that names another tool proves the second load read it instead of describing.
    await writeFile(join(dir, 'describe.json'), JSON.stringify([{ ...kept[0], name: 'from_cache' }]));
    const second = createComponentRuntime({ cacheDir: cache.path, workers: 1 });
    expect((await second.loadFunctionComponent({ path: basic.path })).map((tool) => tool.name)).toEqual(['from_cache']);
    await second.close();

    await writeFile(join(dir, 'describe.json'), '{ not json');
    const third = createComponentRuntime({ cacheDir: cache.path, workers: 1 });
    expect((await third.loadFunctionComponent({ path: basic.path })).map((tool) => tool.name)).toEqual(described);
    await third.close();
    expect(JSON.parse(await readFile(join(dir, 'describe.json'), 'utf8'))).toEqual(kept);
  });

  it('forks one worker on load to compile ahead, and more only when calls need them', async () => {
    const runtime = createComponentRuntime({ cacheDir: cache.path, workers: 2 });
    try {
      const tools = new Map(
        (await runtime.loadFunctionComponent({ path: basic.path })).map((tool) => [tool.name, tool]),
      );
      expect(runtime.stats().workersSpawned).toBe(1);
      const echo = tools.get('echo');
      if (echo === undefined) throw new Error('no echo tool');
      const results = await Promise.all(['a', 'b', 'c'].map((text) => echo.execute({ text }, toolContext(root.path))));
      expect(results.map(resultText)).toEqual(['a', 'b', 'c']);
      expect(runtime.stats().workersSpawned).toBe(2);
    } finally {
      await runtime.close();
    }
  });

  it('loads the glue through V8 code cache, ignoring a damaged cache file', async () => {
    const { loadGlue } = (await import(codeCacheUrl)) as { loadGlue: LoadGlue };
    const dir = await transpiledDir();
    const glue = await loadGlue(dir, 'component.js');
    expect(typeof glue.instantiate).toBe('function');
    await glue.saveCodeCache();
    const cacheFiles = (await readdir(dir)).filter((name) => name.endsWith('.v8-cache'));
    expect(cacheFiles.length).toBeGreaterThan(0);
    for (const name of cacheFiles) await writeFile(join(dir, name), 'garbage, not a V8 cache');

    const runtime = createComponentRuntime({ cacheDir: cache.path, workers: 1 });
    try {
      const [echo] = (await runtime.loadFunctionComponent({ path: basic.path })).filter((tool) => tool.name === 'echo');
      const result = await echo?.execute({ text: 'still works' }, toolContext(root.path));
      expect(result === undefined ? undefined : resultText(result)).toBe('still works');
    } finally {
      await runtime.close();
    }
    for (const name of cacheFiles) await rm(join(dir, name), { force: true });
  });

  it('keeps the wrapped glue beside it and reuses it only for the same glue URL; reads JCO_DEBUG once per load', async () => {
    const { loadGlue } = (await import(codeCacheUrl)) as { loadGlue: LoadGlue };
    const folder = await tempDir('kept-glue');
    try {
      const glue = join(folder.path, 'component.js');
      await writeFile(
        glue,
        "export function instantiate() {\n  return String(globalThis?.process?.env?.JCO_DEBUG ?? 'unset');\n}\n",
      );
      process.env.JCO_DEBUG = 'set at load';
      const first = await loadGlue(folder.path, 'component.js');
      delete process.env.JCO_DEBUG;
      expect(first.instantiate()).toBe('set at load');

      const kept = join(folder.path, 'component.js.script-v2.js');
      const header = (await readFile(kept, 'utf8')).split('\n')[0];
      expect(header).toBe(`// ${pathToFileURL(glue).href}`);
      await writeFile(kept, `${header}\n(function () { return () => 'from the kept script'; })`);
      expect((await loadGlue(folder.path, 'component.js')).instantiate()).toBe('from the kept script');

      // A kept script made for another place (a copied cache folder) is wrapped again.
      await writeFile(kept, `// file:///elsewhere/component.js\n(function () { return () => 'stale'; })`);
      expect((await loadGlue(folder.path, 'component.js')).instantiate()).toBe('unset');
    } finally {
      await folder.remove();
    }
  });

  it('imports glue of an unexpected shape as the module it is', async () => {
    const { loadGlue } = (await import(codeCacheUrl)) as { loadGlue: LoadGlue };
    const odd = await tempDir('odd-glue');
    try {
      await writeFile(
        join(odd.path, 'component.js'),
        "import { sep } from 'node:path';\nexport function instantiate() { return 'module ' + sep; }\n",
      );
      const glue = await loadGlue(odd.path, 'component.js');
      expect(glue.instantiate()).toBe('module /');
      await glue.saveCodeCache();
      expect((await readdir(odd.path)).filter((name) => name.endsWith('.v8-cache'))).toEqual([]);

      await writeFile(
        join(odd.path, 'script.js'),
        [
          'export function instantiate() {',
          "  try { return WebAssembly.promising(() => 1); } catch (error) { return 'fallback ' + error.name; }",
          '}',
          'export const _util = {',
          '}',
        ].join('\n'),
      );
      const script = await loadGlue(odd.path, 'script.js');
      const expected =
        typeof (globalThis as { WebAssembly?: { promising?: unknown } }).WebAssembly?.promising === 'function'
          ? 'function'
          : 'fallback TypeError';
      const value = script.instantiate();
      expect(typeof value === 'function' ? 'function' : value).toBe(expected);
    } finally {
      await odd.remove();
    }
  });
});
