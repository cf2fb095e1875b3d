import { lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyTool } from '@boxagnts/tools';
import { resultText } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ComponentRuntime, createComponentRuntime } from './component-runtime.js';
import type { BuiltComponent } from './componentize.js';
import { buildFixture, tempDir, toolContext } from './test-fixtures.js';

const MIB = 1024 * 1024;

describe('component runtime: hostile guests', () => {
  let hostile: BuiltComponent;
  let basic: BuiltComponent;
  let command: BuiltComponent;
  let runtime: ComponentRuntime;
  let tools: Map<string, AnyTool>;
  let basicTools: Map<string, AnyTool>;
  let root: string;
  let outside: string;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    [hostile, basic, command] = await Promise.all([
      buildFixture('hostile', 'function-tool'),
      buildFixture('function-basic', 'function-tool'),
      buildFixture('command-echo', 'command-tool'),
    ]);
    runtime = createComponentRuntime({ workers: 2, timeoutMs: 2_000, maxMemoryBytes: 64 * MIB });
    tools = new Map((await runtime.loadFunctionComponent({ path: hostile.path })).map((tool) => [tool.name, tool]));
    basicTools = new Map(
      (
        await runtime.loadFunctionComponent(
          { path: basic.path },
          { timeoutMs: 10_000, grantEnv: ['BOXAGNTS_TEST_VISIBLE'] },
        )
      ).map((tool) => [tool.name, tool]),
    );
    const parent = await tempDir('hostile');
    cleanups.push(parent.remove);
    root = join(parent.path, 'root');
    outside = join(parent.path, 'outside.txt');
    await mkdir(join(root, 'sub'), { recursive: true });
    await writeFile(join(root, 'inside.txt'), 'inside');
    await writeFile(outside, 'host secret file');
  });

  afterAll(async () => {
    await runtime.close();
    for (const cleanup of cleanups) await cleanup();
  });

  function tool(name: string, from = tools): AnyTool {
    const found = from.get(name);
    if (found === undefined) throw new Error(`no tool ${name}`);
    return found;
  }

  async function stillWorks(): Promise<void> {
    const echoed = await tool('echo', basicTools).execute({ text: 'alive' }, toolContext(root));
    expect(resultText(echoed)).toBe('alive');
  }

  it('answers a guest exit with an error result and keeps the host running', async () => {
    const result = await tool('call_exit').execute({}, toolContext(root));
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe('Tool "call_exit" stopped: its component called exit(1).');
    expect(result.metadata).toEqual({ failure: 'exit', exitCode: 1 });
    const again = await tool('read_env').execute({}, toolContext(root));
    expect(again.isError).toBeUndefined();
    await stillWorks();
  });

  it('shows the guest no host environment and no working directory', async () => {
    const secret = `secret-${Math.random().toString(36).slice(2)}`;
    process.env.BOXAGNTS_TEST_SECRET = secret;
    process.env.BOXAGNTS_TEST_VISIBLE = 'visible-value';
    try {
      const dumped = resultText(await tool('read_env').execute({}, toolContext(root)));
      expect(JSON.parse(dumped)).toEqual({ env: [], cwd: null });
      const declared = resultText(await tool('env', basicTools).execute({}, toolContext(root)));
      expect(JSON.parse(declared)).toEqual([['BOXAGNTS_TEST_VISIBLE', 'visible-value']]);
      expect(declared).not.toContain(secret);
    } finally {
      delete process.env.BOXAGNTS_TEST_SECRET;
      delete process.env.BOXAGNTS_TEST_VISIBLE;
    }
  });

  it('stops an infinite loop at the deadline, then serves the next call on a new worker', async () => {
    const single = createComponentRuntime({ workers: 1, timeoutMs: 1_500 });
    try {
      const singleTools = new Map(
        (await single.loadFunctionComponent({ path: hostile.path })).map((loaded) => [loaded.name, loaded]),
      );
      expect(single.stats().workersSpawned).toBe(1);
      const result = await tool('spin', singleTools).execute({}, toolContext(root));
      expect(result.isError).toBe(true);
      expect(resultText(result)).toBe('Tool "spin": The call ran past its 1500 ms deadline and was stopped.');
      expect(result.metadata).toEqual({ failure: 'timeout' });
      const next = await tool('read_env', singleTools).execute({}, toolContext(root));
      expect(JSON.parse(resultText(next))).toEqual({ env: [], cwd: null });
      expect(single.stats().workersSpawned).toBe(2);
    } finally {
      await single.close();
    }
    await stillWorks();
  });

  it('stops a call when its signal aborts', async () => {
    const controller = new AbortController();
    const pending = tool('spin').execute({}, toolContext(root, controller.signal));
    setTimeout(() => controller.abort(), 200);
    const result = await pending;
    expect(result.metadata).toEqual({ failure: 'aborted' });
    await stillWorks();
  });

  it('fails a memory bomb call without hurting the host', async () => {
    const result = await tool('memory_bomb').execute({}, toolContext(root));
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/out of memory|memory|worker process ended/i);
    await stillWorks();
    const again = await tool('read_env').execute({}, toolContext(root));
    expect(again.isError).toBeUndefined();
  });

  it('caps guest memory at maxMemoryBytes (64 MiB here)', async () => {
    const probe = resultText(await tool('memory_probe').execute({}, toolContext(root)));
    const match = /^allocated (\d+) MiB, then .*out of memory/.exec(probe);
    expect(match).not.toBeNull();
    const allocated = Number(match?.[1]);
    expect(allocated).toBeGreaterThan(8);
    expect(allocated).toBeLessThan(64);
  });

  it('caps 100 MB of output, keeping head and tail', async () => {
    const echo = await runtime.loadCommandTool(command.path, {
      name: 'echo_cmd',
      description: 'Echo.',
      inputSchema: { type: 'object' },
      permission: 'read-only',
    });
    const result = await echo.execute({ big_mb: 100 }, toolContext(root));
    const text = resultText(result);
    const total = 100 * MIB + 'HEAD-MARKER'.length + 'TAIL-MARKER'.length;
    expect(text.startsWith('HEAD-MARKERzzz')).toBe(true);
    expect(text.endsWith('zzzTAIL-MARKER')).toBe(true);
    expect(text).toContain(`\n[... ${total - MIB} bytes omitted ...]\n`);
    expect(text.length).toBe(MIB + `\n[... ${total - MIB} bytes omitted ...]\n`.length);
  });

  it('caps a large function result the same way', async () => {
    const small = createComponentRuntime({ workers: 1, maxOutputBytes: 1000 });
    try {
      const [bigOutput] = (await small.loadFunctionComponent({ path: hostile.path })).filter(
        (candidate) => candidate.name === 'big_output',
      );
      const text = resultText(await (bigOutput as AnyTool).execute({ bytes: 50_000 }, toolContext(root)));
      expect(text).toBe(`HEAD-MARKER${'y'.repeat(489)}\n[... 49022 bytes omitted ...]\n${'y'.repeat(489)}TAIL-MARKER`);
    } finally {
      await small.close();
    }
  });

  it('refuses paths outside the root', async () => {
    const result = resultText(await tool('escape').execute({ hostPath: outside }, toolContext(root)));
    expect(result.split('\n')).toEqual([
      'read ../outside.txt: refused not-permitted',
      'read /etc/passwd: refused not-permitted',
      'read ../../../../../../etc/passwd: refused not-permitted',
      `read ${outside}: refused not-permitted`,
    ]);
  });

  it('never lets a guest create symlinks or hard links', async () => {
    const result = resultText(await tool('make_links').execute({}, toolContext(root)));
    expect(result.split('\n')).toEqual([
      'symlink: refused not-permitted',
      'relative symlink: refused not-permitted',
      'hard link: refused not-permitted',
    ]);
    expect((await readdir(root)).sort()).toEqual(['inside.txt', 'sub']);
    expect((await lstat(join(root, 'inside.txt'))).nlink).toBe(1);
  });

  it('gives read-only tools a read-only root', async () => {
    const result = resultText(await tool('write_everything').execute({}, toolContext(root)));
    expect(result.split('\n')).toEqual([
      'create: refused read-only',
      'truncate: refused read-only',
      'open for write: refused read-only',
      'unlink: refused read-only',
      'mkdir: refused read-only',
      'rename: refused read-only',
      'subdir write: refused read-only',
    ]);
    expect((await readdir(root)).sort()).toEqual(['inside.txt', 'sub']);
    expect(await readFile(join(root, 'inside.txt'), 'utf8')).toBe('inside');
  });

  it('lets a write tool change the same root (the guard is per instance, not global)', async () => {
    const scratch = await tempDir('writable');
    cleanups.push(scratch.remove);
    await writeFile(join(scratch.path, 'inside.txt'), 'inside');
    await mkdir(join(scratch.path, 'sub'));
    const result = resultText(await tool('write_everything_rw').execute({}, toolContext(scratch.path)));
    expect(result.split('\n')).toEqual([
      'create: allowed',
      'truncate: allowed',
      'open for write: allowed',
      'unlink: allowed',
      'mkdir: allowed',
      'rename: refused no-entry',
      'subdir write: allowed',
    ]);
    expect((await readdir(scratch.path)).sort()).toEqual(['created.txt', 'made', 'sub']);
  });
});
