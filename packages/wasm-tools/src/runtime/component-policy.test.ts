// A third-party component loaded the way users load one (createComponentRuntime().loadFunctionComponent)
// attacks the path policy through its own WASI filesystem; every attack must be refused the way the
// built-in file tools refuse it, and the files on disk must be unchanged.
import { link, lstat, mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyTool } from '@boxagnts/tools';
import { resultText } from '@boxagnts/tools';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ComponentRuntime, createComponentRuntime } from './component-runtime.js';
import type { BuiltComponent } from './componentize.js';
import { buildFixture, tempDir, toolContext } from './test-fixtures.js';

const SECRET = '{"anthropic":"sk-ant-secret-value"}';

describe('component runtime: components obey the path policy', () => {
  let attacks: BuiltComponent;
  let runtime: ComponentRuntime;
  let tools: Map<string, AnyTool>;
  let root: string;
  let outside: string;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    attacks = await buildFixture('policy-attacks', 'function-tool');
    runtime = createComponentRuntime({ workers: 1, timeoutMs: 15_000 });
    tools = new Map((await runtime.loadFunctionComponent({ path: attacks.path })).map((tool) => [tool.name, tool]));
  });

  beforeEach(async () => {
    const parent = await tempDir('component-policy');
    cleanups.push(parent.remove);
    root = join(parent.path, 'root');
    outside = join(parent.path, 'outside.txt');
    await writeFile(outside, 'host file');
    for (const folder of ['.git/hooks', '.boxagnts', '.agents/skills/code-review', 'hooks', 'src', 'sub', 'deep/a/b']) {
      await mkdir(join(root, folder), { recursive: true });
    }
    await link(outside, join(root, 'linked.txt'));
    await writeFile(join(root, '.boxagnts/secrets.json'), SECRET);
    await link(join(root, '.boxagnts/secrets.json'), join(root, 'secret-alias.json'));
    await writeFile(join(root, '.git/config'), '[core]\n');
    await writeFile(join(root, 'AGENTS.md'), 'Be helpful.\n');
    await writeFile(join(root, 'src/AGENTS.md'), 'Source rules.\n');
    await writeFile(join(root, '.agents/skills/code-review/SKILL.md'), 'Review code.\n');
    await writeFile(join(root, 'hooks/check-command.sh'), '#!/bin/sh\nexit 0\n');
    await writeFile(join(root, 'boxagnts.json'), '{"model":"m"}');
    await writeFile(join(root, 'notes.md'), 'notes');
    await writeFile(join(root, 'inside.txt'), 'inside');
    await writeFile(join(root, 'plain.txt'), 'plain');
    await symlink('../inside.txt', join(root, 'sub/up'));
    await symlink('../../../inside.txt', join(root, 'deep/a/b/link'));
  });

  afterAll(async () => {
    await runtime.close();
    for (const cleanup of cleanups) await cleanup();
  });

  async function run(name: string, granted?: readonly string[]): Promise<string[]> {
    const loaded =
      granted === undefined
        ? tools
        : new Map(
            (await runtime.loadFunctionComponent({ path: attacks.path }, { grantEnv: granted })).map((tool) => [
              tool.name,
              tool,
            ]),
          );
    const tool = loaded.get(name);
    if (tool === undefined) throw new Error(`no tool ${name}`);
    const result = await tool.execute({}, toolContext(root));
    expect(result.isError).toBeUndefined();
    return resultText(result).split('\n');
  }

  it('never writes through a hard link to a file outside the root, nor reads a secret by another name', async () => {
    expect(await run('hard_link')).toEqual([
      'write through hard link: refused not-permitted',
      'truncate through hard link: refused not-permitted',
      'read secret through hard link: refused not-permitted',
    ]);
    expect(await readFile(outside, 'utf8')).toBe('host file');
  });

  it('refuses writing git hooks and reading, deleting or moving the secrets file', async () => {
    expect(await run('protected_paths')).toEqual([
      'write .git/hooks/pre-commit: refused not-permitted',
      'mkdir .git/hooks/extra: refused not-permitted',
      'unlink .git/config: refused not-permitted',
      'read .boxagnts/secrets.json: refused not-permitted',
      'unlink .boxagnts/secrets.json: refused not-permitted',
      'rename secrets away: refused not-permitted',
      'rename .git away: refused not-permitted',
      'read .git/config: allowed [core]',
    ]);
    expect(await readFile(join(root, '.boxagnts/secrets.json'), 'utf8')).toBe(SECRET);
    await expect(lstat(join(root, '.git/hooks/pre-commit'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses creating or changing the files the host reads as instructions', async () => {
    expect(await run('instructions')).toEqual([
      'write AGENTS.md: refused not-permitted',
      'write src/AGENTS.md: refused not-permitted',
      'write skill: refused not-permitted',
      'write boxagnts.json: refused not-permitted',
      'write hooks script: refused not-permitted',
      'rename over AGENTS.md: refused not-permitted',
      'rename folder holding AGENTS.md: refused not-permitted',
      'read AGENTS.md: allowed Be helpful.',
    ]);
    expect(await readFile(join(root, 'AGENTS.md'), 'utf8')).toBe('Be helpful.\n');
    expect(await readFile(join(root, 'src/AGENTS.md'), 'utf8')).toBe('Source rules.\n');
    expect(await readFile(join(root, '.agents/skills/code-review/SKILL.md'), 'utf8')).toBe('Review code.\n');
  });

  it('never makes an outward link by renaming a link or the folder holding one', async () => {
    expect(await run('rename_links')).toEqual([
      'rename inward link to the top: refused not-permitted',
      'move folder so its link points out: refused not-permitted',
      'rename link in place: allowed',
      'plain rename: allowed',
    ]);
    await expect(lstat(join(root, 'up'))).rejects.toThrow(/ENOENT/);
    await expect(lstat(join(root, 'a'))).rejects.toThrow(/ENOENT/);
    expect(await readlink(join(root, 'deep/a/b/link'))).toBe('../../../inside.txt');
    expect(await readlink(join(root, 'sub/up2'))).toBe('../inside.txt');
  });

  it('gives a component only the environment variables the user grants, never what describe() names', async () => {
    process.env.BOXAGNTS_ATTACK_API_KEY = 'sk-should-never-leak';
    process.env.BOXAGNTS_GRANTED = 'granted-value';
    try {
      expect(await run('env')).toEqual(['[]']);
      expect(await run('env', ['BOXAGNTS_GRANTED'])).toEqual(['[["BOXAGNTS_GRANTED","granted-value"]]']);
    } finally {
      delete process.env.BOXAGNTS_ATTACK_API_KEY;
      delete process.env.BOXAGNTS_GRANTED;
    }
  });
});

describe('component runtime: command tools get only granted environment variables', () => {
  it('ignores what the manifest names until the user grants it, in a tools folder too', async () => {
    const command = await buildFixture('command-echo', 'command-tool');
    const runtime = createComponentRuntime({ workers: 1, timeoutMs: 15_000 });
    const folder = await tempDir('command-env');
    try {
      await writeFile(join(folder.path, 'echo.wasm'), await readFile(command.path));
      const manifest = {
        name: 'echo_env',
        description: 'Show the environment.',
        input_schema: { type: 'object' },
        permission: 'read-only',
        env: ['BOXAGNTS_ATTACK_API_KEY', 'BOXAGNTS_GRANTED'],
      };
      await writeFile(join(folder.path, 'echo.json'), JSON.stringify(manifest));
      process.env.BOXAGNTS_ATTACK_API_KEY = 'sk-should-never-leak';
      process.env.BOXAGNTS_GRANTED = 'granted-value';
      const context = toolContext(folder.path);
      const ungranted = await runtime.loadCommandTool(join(folder.path, 'echo.wasm'));
      expect(resultText(await ungranted.execute({ show_env: true }, context))).toBe('[]');
      const { tools } = await runtime.loadToolsFolder(folder.path, { grantEnv: { echo_env: ['BOXAGNTS_GRANTED'] } });
      expect(resultText(await (tools[0] as AnyTool).execute({ show_env: true }, context))).toBe(
        '[["BOXAGNTS_GRANTED","granted-value"]]',
      );
    } finally {
      delete process.env.BOXAGNTS_ATTACK_API_KEY;
      delete process.env.BOXAGNTS_GRANTED;
      await runtime.close();
      await folder.remove();
    }
  });
});
