import { copyFile, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyTool } from '@boxagnts/tools';
import { resultText } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ComponentRuntime, createComponentRuntime, getDefaultRuntime } from './component-runtime.js';
import { isComponentRuntimeError } from './component-runtime-error.js';
import type { BuiltComponent } from './componentize.js';
import { buildFixture, tempDir, toolContext } from './test-fixtures.js';

const MANIFEST = {
  name: 'echo_cmd',
  description: 'Echo argv and read a file.',
  input_schema: { type: 'object', properties: { file: { type: 'string' } } },
  permission: 'read-only',
};

describe('component runtime: function and command tools', () => {
  let basic: BuiltComponent;
  let command: BuiltComponent;
  let runtime: ComponentRuntime;
  let tools: Map<string, AnyTool>;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    [basic, command] = await Promise.all([
      buildFixture('function-basic', 'function-tool'),
      buildFixture('command-echo', 'command-tool'),
    ]);
    runtime = createComponentRuntime({ workers: 2, timeoutMs: 15_000 });
    tools = new Map((await runtime.loadFunctionComponent({ path: basic.path })).map((tool) => [tool.name, tool]));
  });

  afterAll(async () => {
    await runtime.close();
    for (const cleanup of cleanups) await cleanup();
  });

  async function root(files: Record<string, string>): Promise<string> {
    const dir = await tempDir('runtime');
    cleanups.push(dir.remove);
    for (const [name, text] of Object.entries(files)) {
      await mkdir(join(dir.path, name, '..'), { recursive: true });
      await writeFile(join(dir.path, name), text);
    }
    return dir.path;
  }

  function tool(name: string): AnyTool {
    const found = tools.get(name);
    if (found === undefined) throw new Error(`no tool ${name}`);
    return found;
  }

  it('turns descriptors into tools with schema and permission', () => {
    expect([...tools.keys()]).toEqual(['echo', 'read_file', 'write_file', 'list', 'counter', 'env', 'image']);
    expect(tool('read_file').permission).toBe('read-only');
    expect(tool('write_file').permission).toBe('write');
    expect(tool('read_file').jsonSchema).toEqual({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
    });
  });

  it('runs a function tool with text, metadata and images', async () => {
    const dir = await root({ 'a.txt': 'alpha' });
    const echoed = await tool('echo').execute({ text: 'héllo' }, toolContext(dir));
    expect(echoed).toEqual({ content: [{ type: 'text', text: 'héllo' }], metadata: { length: 5 } });
    expect(resultText(await tool('read_file').execute({ path: 'a.txt' }, toolContext(dir)))).toBe('alpha');
    const image = await tool('image').execute({}, toolContext(dir));
    expect(image.content[1]).toEqual({
      type: 'image',
      source: { type: 'base64', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
    });
  });

  it('keeps guest globals on a warm instance for the same root', async () => {
    const dir = await root({});
    const first = Number(resultText(await tool('counter').execute({}, toolContext(dir))));
    const second = Number(resultText(await tool('counter').execute({}, toolContext(dir))));
    expect(second).toBe(first + 1);
  });

  it('gives two concurrent calls with different roots only their own files', async () => {
    const left = await root({ 'left-only.txt': 'L' });
    const right = await root({ 'right-only.txt': 'R' });
    const [leftList, rightList, crossRead] = await Promise.all([
      tool('list').execute({}, toolContext(left)),
      tool('list').execute({}, toolContext(right)),
      tool('read_file').execute({ path: 'right-only.txt' }, toolContext(left)),
    ]);
    expect(resultText(leftList)).toBe('left-only.txt');
    expect(resultText(rightList)).toBe('right-only.txt');
    expect(crossRead.isError).toBe(true);
    expect(resultText(crossRead)).toContain('no-entry');
  });

  it('lets write tools write, inside the root only', async () => {
    const dir = await root({});
    const written = await tool('write_file').execute({ path: 'out/new.txt', content: 'x' }, toolContext(dir));
    expect(written.isError).toBe(true);
    await mkdir(join(dir, 'out'));
    await tool('write_file').execute({ path: 'out/new.txt', content: 'fresh' }, toolContext(dir));
    expect(resultText(await tool('read_file').execute({ path: 'out/new.txt' }, toolContext(dir)))).toBe('fresh');
    const outside = await tool('write_file').execute({ path: '../escaped.txt', content: 'x' }, toolContext(dir));
    expect(resultText(outside)).toContain('not-permitted');
  });

  it('runs a command tool with the flag protocol and the root at /', async () => {
    const dir = await root({ 'notes/today.txt': 'buy milk' });
    const echo = await runtime.loadCommandTool(command.path, MANIFEST);
    expect(echo.name).toBe('echo_cmd');
    const result = await echo.execute(
      { file: '/notes/today.txt', user_name: 'Ada', loud: true, quiet: false, count: 2, tags: ['a'] },
      toolContext(dir),
    );
    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toBe(
      'argv=["echo_cmd","--file","/notes/today.txt","--user-name","Ada","--loud","--count","2","--tags","[\\"a\\"]"]\nfile=buy milk',
    );
    expect(result.metadata).toEqual({ argc: 10 });
    const plain = await echo.execute({ plain: 'no json here' }, toolContext(dir));
    expect(plain).toEqual({ content: [{ type: 'text', text: 'no json here' }] });
  });

  it('turns command stderr, exit codes and run errors into error results', async () => {
    const dir = await root({});
    const echo = await runtime.loadCommandTool(command.path, MANIFEST);
    const stderr = await echo.execute({ stderr: 'something broke' }, toolContext(dir));
    expect(stderr.isError).toBe(true);
    expect(resultText(stderr)).toContain('something broke');
    const exited = await echo.execute({ exit_code: '2' }, toolContext(dir));
    expect(resultText(exited)).toBe('The command exited with code 1.');
    const failed = await echo.execute({ fail: true }, toolContext(dir));
    expect(resultText(failed)).toBe('The command reported failure.');
    const missing = await echo.execute({ file: 'nope.txt' }, toolContext(dir));
    expect(missing.isError).toBe(true);
    expect(resultText(missing)).toBe('cannot read nope.txt: no-entry');
  });

  it('loads a tools folder: command tools by manifest, function components, warnings for bad ones', async () => {
    const dir = await root({});
    await copyFile(command.path, join(dir, 'echo.wasm'));
    await writeFile(join(dir, 'echo.json'), JSON.stringify(MANIFEST));
    await copyFile(command.path, join(dir, 'broken.wasm'));
    await writeFile(join(dir, 'broken.wasm.json'), JSON.stringify({ ...MANIFEST, permission: 'everything' }));
    await copyFile(basic.path, join(dir, 'basic.wasm'));
    await writeFile(join(dir, 'junk.wasm'), 'not a component');
    const loaded = await runtime.loadToolsFolder(dir);
    expect(loaded.tools.map((loadedTool) => loadedTool.name).sort()).toEqual(
      ['counter', 'echo', 'echo_cmd', 'env', 'image', 'list', 'read_file', 'write_file'].sort(),
    );
    expect(loaded.warnings).toHaveLength(2);
    expect(loaded.warnings[0]).toContain(`${join(dir, 'broken.wasm')}: Invalid command-tool manifest`);
    expect(loaded.warnings[0]).toContain('field "permission"');
    expect(loaded.warnings[1]).toContain(join(dir, 'junk.wasm'));
    expect(await runtime.loadToolsFolder(join(dir, 'missing'))).toEqual({ tools: [], warnings: [], files: {} });
  });

  it('refuses a command tool without a manifest, naming both accepted file names', async () => {
    const dir = await root({});
    await copyFile(command.path, join(dir, 'lonely.wasm'));
    const error = await runtime.loadCommandTool(join(dir, 'lonely.wasm')).catch((caught: unknown) => caught);
    expect(isComponentRuntimeError(error)).toBe(true);
    expect((error as Error).message).toContain(
      `Write its manifest to ${join(dir, 'lonely.json')} (or lonely.wasm.json)`,
    );
  });
});

describe('component runtime: shared instance and low-level calls', () => {
  it('hands out one default runtime', () => {
    expect(getDefaultRuntime()).toBe(getDefaultRuntime());
  });

  it('runs a prepared component through call() with exactly the given capabilities', async () => {
    const basic = await buildFixture('function-basic', 'function-tool');
    const runtime = createComponentRuntime({ workers: 1 });
    const dir = await tempDir('call');
    try {
      await writeFile(join(dir.path, 'x.txt'), 'from call');
      const prepared = await runtime.prepare({ path: basic.path });
      expect(prepared.name).toBe(basic.path);
      expect(prepared.hash).toMatch(/^[0-9a-f]{64}$/);
      const outcome = await runtime.call({
        component: prepared,
        kind: 'function',
        root: dir.path,
        readOnly: true,
        env: { ONLY_THIS: '1' },
        toolName: 'read_file',
        input: JSON.stringify({ path: 'x.txt' }),
      });
      expect(outcome).toMatchObject({ ok: true, output: { content: 'from call', isError: false } });
      const envOutcome = await runtime.call({
        component: prepared,
        kind: 'function',
        root: dir.path,
        readOnly: true,
        env: { ONLY_THIS: '1' },
        toolName: 'env',
        input: '{}',
      });
      expect(envOutcome).toMatchObject({ ok: true, output: { content: '[["ONLY_THIS","1"]]' } });
      await runtime.close();
      expect(await runtime.call({ component: prepared, kind: 'describe' })).toMatchObject({
        ok: false,
        kind: 'closed',
      });
    } finally {
      await runtime.close();
      await dir.remove();
    }
  });
});

describe('component runtime: transpile cache', () => {
  it('reuses the transpiled files on a second load', async () => {
    const basic = await buildFixture('function-basic', 'function-tool');
    const cache = await tempDir('cache');
    try {
      const first = createComponentRuntime({ cacheDir: cache.path, workers: 1 });
      await first.loadFunctionComponent({ path: basic.path });
      expect(first.stats()).toMatchObject({ transpiles: 1, transpileCacheHits: 0 });
      await first.close();
      const [entryDir] = await readdir(join(cache.path, 'transpiled'));
      const entry = join(cache.path, 'transpiled', entryDir as string, 'component.js');
      const before = await stat(entry);
      const second = createComponentRuntime({ cacheDir: cache.path, workers: 1 });
      const loaded = await second.loadFunctionComponent({ bytes: basic.bytes, name: 'basic from bytes' });
      expect(loaded.map((loadedTool) => loadedTool.name)).toContain('echo');
      expect(second.stats()).toMatchObject({ transpiles: 0, transpileCacheHits: 1 });
      await second.close();
      const after = await stat(entry);
      expect(after.ino).toBe(before.ino);
      expect(after.mtimeMs).toBe(before.mtimeMs);
      expect(await readdir(join(cache.path, 'transpiled'))).toEqual([entryDir]);
    } finally {
      await cache.remove();
    }
  });
});
