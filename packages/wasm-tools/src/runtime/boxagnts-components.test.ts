// BoxAgnts users bring their tool components unchanged: bare command components with no
// manifest, recognised by file name, printing Rust debug notation. The seed scenario (read
// config.toml, change the port to 8080) runs through a component built here from source, and
// through BoxAgnts' own prebuilt components where /work/shared holds them.
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyTool } from '@boxagnts/tools';
import { resultText } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ComponentRuntime, createComponentRuntime } from './component-runtime.js';
import { isComponentRuntimeError } from './component-runtime-error.js';
import { buildFixture, PACKAGE_DIR, tempDir, toolContext } from './test-fixtures.js';

/** BoxAgnts' prebuilt artifacts (read-only, outside the repository). */
const BOXAGNTS_TOOLS = join(PACKAGE_DIR, '../../../shared/fixtures/boxagnts/tools');
const HAVE_BOXAGNTS = existsSync(join(BOXAGNTS_TOOLS, 'file-read-component.wasm'));

let runtime: ComponentRuntime;
let built: string;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  runtime = createComponentRuntime({ workers: 1, timeoutMs: 20_000 });
  built = (await buildFixture('rust-debug-file', 'command-tool')).path;
}, 120_000);

afterAll(async () => {
  await runtime.close();
  for (const cleanup of cleanups) await cleanup();
});

async function workspace(): Promise<{ tools: string; root: string }> {
  const dir = await tempDir('boxagnts-components');
  cleanups.push(dir.remove);
  const tools = join(dir.path, 'tools');
  const root = join(dir.path, 'root');
  await mkdir(tools);
  await mkdir(root);
  await writeFile(join(root, 'config.toml'), '[server]\nport = 8000\nname = "démo"\n');
  return { tools, root };
}

function byName(tools: AnyTool[]): Record<string, AnyTool> {
  return Object.fromEntries(tools.map((tool) => [tool.name, tool]));
}

/** The seed scenario: read config.toml, change the port to 8080, and a refusal. */
async function seedScenario(tools: Record<string, AnyTool>, root: string) {
  const read = tools.read as AnyTool;
  const edit = tools.edit as AnyTool;
  const first = await read.execute({ file_path: 'config.toml' }, toolContext(root));
  expect(first.isError ?? false).toBe(false);
  expect(resultText(first)).toContain('2\tport = 8000');
  expect(resultText(first)).toContain('name = "démo"');
  const edited = await edit.execute(
    { file_path: 'config.toml', old_string: 'port = 8000', new_string: 'port = 8080' },
    toolContext(root),
  );
  expect(edited.isError ?? false).toBe(false);
  expect(resultText(edited)).toContain('config.toml');
  expect(await readFile(join(root, 'config.toml'), 'utf8')).toBe('[server]\nport = 8080\nname = "démo"\n');
  const refused = await read.execute({ file_path: '../outside.txt' }, toolContext(root));
  expect(refused.isError).toBe(true);
  expect(resultText(refused)).toContain('../outside.txt');
  expect(resultText(refused)).not.toContain('Object {');
}

describe('BoxAgnts command components without a manifest (built from source)', () => {
  it('loads a component named like a BoxAgnts tool with its name, permission and schema', async () => {
    const { tools, root } = await workspace();
    await copyFile(built, join(tools, 'file-read-component.wasm'));
    await copyFile(built, join(tools, 'file-edit-component.wasm'));
    const loaded = await runtime.loadToolsFolder(tools);
    expect(loaded.warnings).toEqual([]);
    const named = byName(loaded.tools);
    expect(Object.keys(named).sort()).toEqual(['edit', 'read']);
    expect(named.read?.permission).toBe('read-only');
    expect(named.edit?.permission).toBe('write');
    expect(named.edit?.jsonSchema).toMatchObject({ required: ['file_path', 'old_string', 'new_string'] });
    await seedScenario(named, root);
  });

  it('says exactly which manifest to write for an unknown command component, naming the file once', async () => {
    const { tools } = await workspace();
    const path = join(tools, 'line-tool.wasm');
    await copyFile(built, path);
    const loaded = await runtime.loadToolsFolder(tools);
    expect(loaded.tools).toEqual([]);
    expect(loaded.warnings).toHaveLength(1);
    const warning = loaded.warnings[0] as string;
    expect(warning).not.toContain('describe()');
    expect(warning).not.toContain('boxagnts:tool/tool');
    expect(warning.split(path).length - 1).toBe(1);
    expect(warning).toContain(`Write its manifest to ${join(tools, 'line-tool.json')}`);
    const manifestText = warning.slice(warning.indexOf('{'));
    expect(JSON.parse(manifestText)).toMatchObject({ name: 'line-tool', permission: 'read-only' });
    // Written as shown, the manifest loads the tool.
    await writeFile(join(tools, 'line-tool.json'), manifestText);
    const again = await runtime.loadToolsFolder(tools);
    expect(again.warnings).toEqual([]);
    expect(again.tools.map((tool) => tool.name)).toEqual(['line-tool']);
  });

  it('refuses a command component given to loadFunctionComponent with the manifest to write', async () => {
    const error = await runtime.loadFunctionComponent({ path: built }).catch((caught: unknown) => caught);
    expect(isComponentRuntimeError(error)).toBe(true);
    expect((error as Error).message).toContain('is a command component (it exports wasi:cli/run) with no manifest');
  });
});

describe.skipIf(!HAVE_BOXAGNTS)(
  "BoxAgnts' own prebuilt components (from ../shared/fixtures/boxagnts; skipped where that folder is absent)",
  () => {
    it('loads the four file components and the web-fetch component from the folder as shipped', async () => {
      const loaded = await runtime.loadToolsFolder(BOXAGNTS_TOOLS);
      expect(loaded.warnings).toEqual([]);
      expect(loaded.tools.map((tool) => [tool.name, tool.permission])).toEqual([
        ['edit', 'write'],
        ['glob', 'read-only'],
        ['read', 'read-only'],
        ['write', 'write'],
        ['web-fetch', 'network'],
      ]);
    });

    it('says that the static site component serves HTTP and is not a tool', async () => {
      const site = join(BOXAGNTS_TOOLS, '../services/boxed_static_server_component.wasm');
      const error = await runtime.loadCommandTool(site).catch((caught: unknown) => caught);
      expect(isComponentRuntimeError(error)).toBe(true);
      expect((error as Error).message).toContain('mount it with createComponentHttpHandler');
    });

    it('runs the seed scenario, with refusals as errors', async () => {
      const { root } = await workspace();
      const named = byName((await runtime.loadToolsFolder(BOXAGNTS_TOOLS)).tools);
      await seedScenario(named, root);
      const globbed = await (named.glob as AnyTool).execute({ pattern: '*.toml' }, toolContext(root));
      expect(resultText(globbed)).toContain('config.toml');
      const written = await (named.write as AnyTool).execute(
        { file_path: 'notes/«new».txt', content: 'héllo\n' },
        toolContext(root),
      );
      expect(written.isError ?? false).toBe(false);
      expect(written.metadata).toMatchObject({ is_new: true });
      expect(await readFile(join(root, 'notes/«new».txt'), 'utf8')).toBe('héllo\n');
      const missing = await (named.edit as AnyTool).execute(
        { file_path: 'config.toml', old_string: 'no such text', new_string: 'x' },
        toolContext(root),
      );
      expect(missing.isError).toBe(true);
    });
  },
);

// Where the fixture folder is absent the describe block above reports itself skipped; this says why.
it.skipIf(HAVE_BOXAGNTS)('BoxAgnts fixtures are absent: the prebuilt-component tests are skipped', () => {
  expect(HAVE_BOXAGNTS).toBe(false);
});
