// BoxAgnts' components are named like the built-ins (read, write, edit, glob): loading a folder of
// them beside the built-ins is an error that names both sources, unless the user says to replace
// the built-ins or to load the components under other names.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resultText } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ComponentRuntime, createComponentRuntime } from '../runtime/component-runtime.js';
import { buildFixture, tempDir, toolContext } from '../runtime/test-fixtures.js';
import { createSandboxToolSource } from './sandbox-tool-source.js';

let runtime: ComponentRuntime;
let folder: string;
let root: string;
let remove: () => Promise<void>;

beforeAll(async () => {
  runtime = createComponentRuntime({ workers: 1 });
  const built = await buildFixture('rust-debug-file', 'command-tool');
  const dir = await tempDir('collisions');
  remove = dir.remove;
  folder = join(dir.path, 'tools');
  root = join(dir.path, 'root');
  await mkdir(folder);
  await mkdir(root);
  await copyFile(built.path, join(folder, 'file-edit-component.wasm'));
  await writeFile(join(root, 'config.toml'), 'port = 8000\n');
}, 120_000);

afterAll(async () => {
  await runtime.close();
  await remove();
});

const source = (options: Parameters<typeof createSandboxToolSource>[0] = {}) =>
  createSandboxToolSource({ runtime, toolsFolder: folder, webFetch: false, jsExec: false, bash: false, ...options });

describe('tools folder names that collide with the built-ins', () => {
  it('fails by default with an error naming the built-in and the component file', async () => {
    const error = await source()
      .load()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain(
      `"edit" is offered by both the sandbox's built-in tools and the tools folder component ${join(folder, 'file-edit-component.wasm')}`,
    );
    expect(message).toContain('toolsFolderCollisions: "replace"');
  });

  it('replaces the built-in on purpose with "replace"', async () => {
    const tools = await source({ toolsFolderCollisions: 'replace' }).load();
    expect(tools.filter((tool) => tool.name === 'edit')).toHaveLength(1);
    const edit = tools.find((tool) => tool.name === 'edit');
    const result = await edit?.execute(
      { file_path: 'config.toml', old_string: 'port = 8000', new_string: 'port = 8080' },
      toolContext(root),
    );
    // The component's own answer (Rust debug notation, read as a result), not the built-in's.
    expect(resultText(result as never)).toBe('Successfully edited config.toml (1 replacement).');
    expect(await readFile(join(root, 'config.toml'), 'utf8')).toBe('port = 8080\n');
    expect(tools.map((tool) => tool.name).sort()).toEqual(['edit', 'glob', 'grep', 'read', 'write']);
  });

  it('loads the component under another name with a prefix', async () => {
    const tools = await source({ toolsFolderCollisions: { prefix: 'boxagnts_' } }).load();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['boxagnts_edit', 'edit', 'glob', 'grep', 'read', 'write']);
    const renamed = tools.find((tool) => tool.name === 'boxagnts_edit');
    expect(renamed?.permission).toBe('write');
    await expect(source({ toolsFolderCollisions: { prefix: 'bad prefix ' } }).load()).rejects.toThrow(
      /not a free tool name/,
    );
  });
});
