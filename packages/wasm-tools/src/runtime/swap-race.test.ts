// No race between a check and a use: while another process swaps a folder of the root with a
// symlink to an outside folder as fast as it can, reads of a file in that folder (through the
// worker's wasi:filesystem directly, and through the sandboxed `read` tool end to end) must never
// return the outside file. Each loop runs for a bounded time and counts; the counts are asserted.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { executeTool } from '@boxagnts/tools';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildFsToolsComponent } from '../fs-tools/build-fs-tools-component.js';
import { createFsTools } from '../fs-tools/create-fs-tools.js';
import { createComponentRuntime } from './component-runtime.js';
import { tempDir, toolContext } from './test-fixtures.js';

/** How long each loop attacks; the whole file stays well under CI's 30 s. */
const DIRECT_MS = 4_000;
const END_TO_END_MS = 6_000;
/** Files in the swapped folder (and in the outside folder, with the same names). */
const FILES = 10;

const SWAPPER = `
const { renameSync } = require('node:fs');
const [folder, link, parked] = process.argv.slice(1);
const stop = Date.now() + 25000;
while (Date.now() < stop) {
  try { renameSync(folder, parked); renameSync(link, folder); renameSync(folder, link); renameSync(parked, folder); }
  catch {}
}
`;

interface Handle {
  openAt(pathFlags: object, path: string, openFlags: object, descriptorFlags: object): Handle;
  read(length: number, offset: number): [Uint8Array, boolean];
}
type CreateImports = (
  root: string,
  readOnly: boolean,
  policy: { protectedPaths: string[]; secretPaths: string[] },
) => { preopens: { getDirectories(): Array<[Handle, string]> } };

const DISPOSE: symbol = Symbol.dispose ?? Symbol.for('dispose');
const moduleUrl = new URL(process.env.BOXAGNTS_RACE_FS_MODULE ?? './worker-filesystem.mjs', import.meta.url).href;

describe.skipIf(process.platform === 'win32')('check-then-use races on a swapped folder', () => {
  let root: string;
  let swapper: ChildProcess | undefined;
  const cleanups: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    const parent = await tempDir('swap-race');
    cleanups.push(parent.remove);
    const base = await realpath(parent.path);
    root = join(base, 'root');
    await mkdir(join(root, 'd'), { recursive: true });
    await mkdir(join(base, 'outside'));
    // Many files: a walk opens each of them relative to the folder, many chances per call.
    for (let index = 0; index < FILES; index += 1) {
      const name = index === 0 ? 'f.txt' : `f${index}.txt`;
      await writeFile(join(root, 'd', name), 'inside');
      await writeFile(join(base, 'outside', name), 'OUTSIDE');
    }
    await symlink(join(base, 'outside'), join(root, 'evil'));
    swapper = spawn(process.execPath, ['-e', SWAPPER, join(root, 'd'), join(root, 'evil'), join(root, 'parked')], {
      stdio: 'ignore',
    });
  });

  afterEach(async () => {
    const child = swapper;
    swapper = undefined;
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
  });

  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('never lets the worker filesystem open the outside file', async () => {
    const { createFilesystemImports } = (await import(moduleUrl)) as { createFilesystemImports: CreateImports };
    const [[preopen]] = createFilesystemImports(root, true, {
      protectedPaths: [],
      secretPaths: [],
    }).preopens.getDirectories() as [[Handle, string]];
    const counts = { inside: 0, outside: 0, refused: 0 };
    const stop = Date.now() + DIRECT_MS;
    while (Date.now() < stop) {
      let file: Handle | undefined;
      try {
        file = preopen.openAt({}, 'd/f.txt', {}, { read: true });
        const text = Buffer.from(file.read(64, 0)[0]).toString('utf8');
        if (text === 'OUTSIDE') counts.outside += 1;
        else counts.inside += 1;
      } catch {
        counts.refused += 1;
      } finally {
        (file as unknown as Record<symbol, (() => void) | undefined> | undefined)?.[DISPOSE]?.();
      }
    }
    expect(counts.outside).toBe(0);
    expect(counts.inside).toBeGreaterThan(0);
    expect(counts.refused).toBeGreaterThan(0);
  });

  it('never lets the sandboxed read and grep tools return the outside file', async () => {
    const runtime = createComponentRuntime({
      workers: 2,
      ...(process.env.BOXAGNTS_RACE_WORKER === undefined ? {} : { workerPath: process.env.BOXAGNTS_RACE_WORKER }),
    });
    try {
      const tools = await createFsTools({ runtime, component: { path: (await buildFsToolsComponent()).path } });
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      const calls = [
        { tool: byName.get('read'), input: { file_path: 'd/f.txt' } },
        // grep walks the root: the folder is listed, then each of its files opened by name.
        { tool: byName.get('grep'), input: { pattern: 'OUT[S]IDE', path: '.', output_mode: 'count' } },
      ];
      const counts = { inside: 0, outside: 0, refused: 0 };
      const stop = Date.now() + END_TO_END_MS;
      for (let index = 0; Date.now() < stop; index += 1) {
        const call = calls[index % calls.length];
        if (call?.tool === undefined) throw new Error('missing file tool');
        const result = await executeTool(call.tool, call.input, toolContext(root));
        const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
        const leaked = call.input.pattern === undefined ? text.includes('OUTSIDE') : /:\d+/.test(text);
        if (leaked) counts.outside += 1;
        else if (result.isError === true) counts.refused += 1;
        else counts.inside += 1;
      }
      expect(counts.outside).toBe(0);
      expect(counts.inside).toBeGreaterThan(0);
    } finally {
      await runtime.close();
    }
  });
});
