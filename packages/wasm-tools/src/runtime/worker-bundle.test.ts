// The published package forks the worker entries bundled into one file each
// (scripts/bundle-workers.mjs, run by the build). These tests bundle them the same way and run
// guests through the bundled component worker: the capabilities, the path policy, the exit
// override, the deadline and the command protocol must behave as they do from the sources.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AnyTool, resultText } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain-JS build script without declarations
import { bundleWorkers, WORKER_ENTRIES } from '../../scripts/bundle-workers.mjs';
import { type ComponentRuntime, createComponentRuntime } from './component-runtime.js';
import type { BuiltComponent } from './componentize.js';
import { buildFixture, PACKAGE_DIR, tempDir, toolContext } from './test-fixtures.js';

const MANIFEST = {
  name: 'echo_cmd',
  description: 'Echo argv and read a file.',
  input_schema: { type: 'object', properties: { file: { type: 'string' } } },
  permission: 'read-only',
};

/** Bare specifiers and relative paths a bundle still imports (node: built-ins excepted). */
function importsOf(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s*)["']([^"']+)["']/gm)) {
    const specifier = match[1] as string;
    if (!specifier.startsWith('node:')) found.add(specifier);
  }
  return [...found].sort();
}

describe('the bundled worker entries', () => {
  let bundleDir: string;
  let workers: string[];
  let basic: BuiltComponent;
  let hostile: BuiltComponent;
  let command: BuiltComponent;
  let runtime: ComponentRuntime;
  let tools: Map<string, AnyTool>;
  let root: string;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    // Inside the package's node_modules, so the bundle resolves preview2-shim as an install does.
    await mkdir(join(PACKAGE_DIR, 'node_modules'), { recursive: true });
    bundleDir = await mkdtemp(join(PACKAGE_DIR, 'node_modules', '.worker-bundle-test-'));
    cleanups.push(() => rm(bundleDir, { recursive: true, force: true }));
    [workers, basic, hostile, command] = await Promise.all([
      bundleWorkers(bundleDir) as Promise<string[]>,
      buildFixture('function-basic', 'function-tool'),
      buildFixture('hostile', 'function-tool'),
      buildFixture('command-echo', 'command-tool'),
    ]);
    runtime = createComponentRuntime({ workers: 1, timeoutMs: 10_000, workerPath: join(bundleDir, 'worker.cjs') });
    const loaded = [
      ...(await runtime.loadFunctionComponent({ path: basic.path })),
      ...(await runtime.loadFunctionComponent({ path: hostile.path }, { timeoutMs: 1_500 })),
    ];
    tools = new Map(loaded.map((tool) => [tool.name, tool]));
    const dir = await tempDir('worker-bundle');
    cleanups.push(dir.remove);
    root = join(dir.path, 'root');
    await mkdir(join(root, 'notes'), { recursive: true });
    await writeFile(join(root, 'notes', 'today.txt'), 'buy milk');
    await writeFile(join(dir.path, 'outside.txt'), 'host secret file');
  }, 120_000);

  afterAll(async () => {
    await runtime?.close();
    for (const cleanup of cleanups) await cleanup();
  });

  function tool(name: string): AnyTool {
    const found = tools.get(name);
    if (found === undefined) throw new Error(`no tool ${name}`);
    return found;
  }

  it('writes one self-contained file per entry, importing only built-ins and preview2-shim', async () => {
    expect(workers.map((path) => path.slice(bundleDir.length + 1))).toEqual(['worker.cjs', 'worker-http.mjs']);
    expect(WORKER_ENTRIES.map((entry: { source: string }) => entry.source)).toEqual(['worker.mjs', 'worker-http.mjs']);
    const component = await readFile(join(bundleDir, 'worker.cjs'), 'utf8');
    expect(importsOf(component)).toEqual([
      '@bytecodealliance/preview2-shim',
      '@bytecodealliance/preview2-shim/instantiation',
    ]);
    const http = await readFile(join(bundleDir, 'worker-http.mjs'), 'utf8');
    expect(importsOf(http)).toEqual([
      '@bytecodealliance/preview2-shim',
      '@bytecodealliance/preview2-shim/http',
      '@bytecodealliance/preview2-shim/instantiation',
    ]);
  });

  it('runs function tools with the root preopened and nothing outside it', async () => {
    const echoed = await tool('echo').execute({ text: 'héllo' }, toolContext(root));
    expect(echoed).toEqual({ content: [{ type: 'text', text: 'héllo' }], metadata: { length: 5 } });
    expect(resultText(await tool('read_file').execute({ path: 'notes/today.txt' }, toolContext(root)))).toBe(
      'buy milk',
    );
    const escaped = await tool('read_file').execute({ path: '../outside.txt' }, toolContext(root));
    expect(escaped.isError).toBe(true);
    expect(resultText(escaped)).toContain('not-permitted');
    await tool('write_file').execute({ path: 'notes/new.txt', content: 'fresh' }, toolContext(root));
    expect(await readFile(join(root, 'notes', 'new.txt'), 'utf8')).toBe('fresh');
  });

  it('keeps the exit and environment overrides', async () => {
    const exited = await tool('call_exit').execute({}, toolContext(root));
    expect(resultText(exited)).toBe('Tool "call_exit" stopped: its component called exit(1).');
    const environment = await tool('read_env').execute({}, toolContext(root));
    expect(JSON.parse(resultText(environment))).toEqual({ env: [], cwd: null });
  });

  it('stops a call at its deadline and serves the next one on a new worker', async () => {
    const spun = await tool('spin').execute({}, toolContext(root));
    expect(resultText(spun)).toBe('Tool "spin": The call ran past its 1500 ms deadline and was stopped.');
    expect(resultText(await tool('echo').execute({ text: 'alive' }, toolContext(root)))).toBe('alive');
    expect(runtime.stats().workersSpawned).toBe(2);
  });

  it('runs a command tool with the flag protocol', async () => {
    const echo = await runtime.loadCommandTool(command.path, MANIFEST);
    const result = await echo.execute({ file: '/notes/today.txt' }, toolContext(root));
    expect(resultText(result)).toBe('argv=["echo_cmd","--file","/notes/today.txt"]\nfile=buy milk');
  });
});
