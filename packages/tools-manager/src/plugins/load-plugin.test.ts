import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { executeTool, resultText, type ToolContext } from '@boxagnts/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPlugin } from './load-plugin.js';
import { isPluginLoadError, type PluginLoadError } from './plugin-load-error.js';
import { createPluginProject, type PluginProject, toolSource } from './test/plugin-fixtures.js';

const context: ToolContext = {
  root: process.cwd(),
  signal: new AbortController().signal,
  sessionId: 'session-plugins',
  turnId: 'turn-1',
  toolCallId: 'call_1',
};

/** The PluginLoadError a promise rejects with (fails the test when it resolves or rejects otherwise). */
async function loadError(promise: Promise<unknown>): Promise<PluginLoadError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(isPluginLoadError(error), `expected a PluginLoadError, got ${String(error)}`).toBe(true);
  return error as PluginLoadError;
}

const OBJECT_PLUGIN = (name: string) => `import { z } from 'zod';
${toolSource('first', 'first_tool')}
export default { name: ${JSON.stringify(name)}, setup(api) { api.registerTool(first); } };
`;

let project: PluginProject;
beforeEach(async () => {
  project = await createPluginProject();
});
afterEach(async () => {
  await project.remove();
});

describe('loadPlugin: packages by name', () => {
  it('resolves a scoped package through its exports map with the import condition, from a nested folder', async () => {
    const packageRoot = join(project.root, 'node_modules', '@acme', 'tools');
    await project.writePackageJson('node_modules/@acme/tools', {
      name: '@acme/tools',
      version: '2.3.4',
      type: 'module',
      exports: { '.': { require: './dist/index.cjs', import: './dist/index.mjs' }, './package.json': './package.json' },
    });
    await project.write('node_modules/@acme/tools/dist/index.cjs', 'throw new Error("the require target was used");\n');
    await project.write('node_modules/@acme/tools/dist/index.mjs', OBJECT_PLUGIN('acme'));
    await project.write('apps/web/src/.keep', '');

    const plugin = await loadPlugin('@acme/tools', { from: join(project.root, 'apps', 'web', 'src') });

    expect(plugin).toMatchObject({ name: 'acme', version: '2.3.4', root: packageRoot, skillFolders: [] });
    expect(plugin.tools.map((tool) => tool.name)).toEqual(['first_tool']);
    const result = await executeTool(plugin.tools[0]!, { value: 'x' }, context);
    expect(resultText(result)).toBe('first_tool ran:x');
    const bad = await executeTool(plugin.tools[0]!, { value: 3 }, context);
    expect(bad.isError).toBe(true);
  });

  it('resolves a subpath through a pattern export, with nested conditions', async () => {
    await project.writePackageJson('node_modules/multi-tools', {
      name: 'multi-tools',
      exports: { './plugins/*': { node: { import: './lib/*.mjs' } }, '.': null },
    });
    await project.write(
      'node_modules/multi-tools/lib/second.mjs',
      'export default function (api) { api.logger.info("second loaded"); }\n',
    );

    const plugin = await loadPlugin('multi-tools/plugins/second', { from: project.root });

    expect(plugin.name).toBe('multi-tools');
    expect(plugin.tools).toEqual([]);
    const refused = await loadError(loadPlugin('multi-tools', { from: project.root }));
    expect(refused.reason).toBe('no-entry');
    expect(refused.message).toContain('it offers: ./plugins/*, .');
  });

  it('refuses an exports map without an import or default target, saying what to add', async () => {
    await project.writePackageJson('node_modules/cjs-only', { name: 'cjs-only', exports: { require: './index.cjs' } });
    await project.write('node_modules/cjs-only/index.cjs', 'module.exports = () => {};\n');

    const error = await loadError(loadPlugin('cjs-only', { from: project.root }));

    expect(error.reason).toBe('no-entry');
    expect(error.message).toContain('add an "import" or "default" target for "."');
  });

  it('says when the exports map points at a file that was never built', async () => {
    await project.writePackageJson('node_modules/unbuilt', { name: 'unbuilt', exports: './dist/index.js' });
    const error = await loadError(loadPlugin('unbuilt', { from: project.root }));
    expect(error.reason).toBe('no-entry');
    expect(error.message).toContain('./dist/index.js, which does not exist');
  });

  it('uses "main" when there is no exports map, and the package can name itself', async () => {
    await project.writePackageJson('node_modules/old-style', {
      name: 'old-style',
      version: '0.1.0',
      main: 'lib/entry',
    });
    await project.write('node_modules/old-style/lib/entry.js', 'export default () => {};\n');
    await project.writePackageJson('node_modules/old-style/lib', { type: 'module' });

    const plugin = await loadPlugin('old-style', { from: project.root });

    expect(plugin).toMatchObject({ name: 'old-style', version: '0.1.0' });
  });

  it('finds a package from inside itself by its own name (self-reference, as the example does)', async () => {
    await project.writePackageJson('packages/self', { name: 'self-plugin', exports: './main.mjs' });
    await project.write('packages/self/main.mjs', OBJECT_PLUGIN('self'));

    const plugin = await loadPlugin('self-plugin', { from: join(project.root, 'packages', 'self') });

    expect(plugin.root).toBe(join(project.root, 'packages', 'self'));
    expect(plugin.tools).toHaveLength(1);
  });

  it('reports a missing package with the install command', async () => {
    const error = await loadError(loadPlugin('@acme/nowhere', { from: project.root }));
    expect(error.reason).toBe('not-found');
    expect(error.specifier).toBe('@acme/nowhere');
    expect(error.message).toContain('npm install @acme/nowhere');
  });

  it('refuses a specifier that is neither a package name nor a path', async () => {
    const error = await loadError(loadPlugin('@scope-without-name', { from: project.root }));
    expect(error.reason).toBe('not-found');
    expect(error.message).toContain('neither a package name nor a path');
  });
});

describe('loadPlugin: local folders and files', () => {
  it('loads a folder without package.json through its index.mjs, named after the folder', async () => {
    await project.write(
      'plugins/local-helpers/index.mjs',
      `import { z } from 'zod';
${toolSource('helper', 'helper')}
export default async function setup(api) { api.registerTools([helper]); }
`,
    );

    const plugin = await loadPlugin('./plugins/local-helpers', { from: project.root });

    expect(plugin).toEqual({
      name: 'local-helpers',
      root: join(project.root, 'plugins', 'local-helpers'),
      tools: [expect.objectContaining({ name: 'helper' })],
      skillFolders: [],
    });
  });

  it('loads a folder with a package.json through its exports map', async () => {
    await project.writePackageJson('vendor/acme', {
      name: 'acme-vendored',
      version: '1.0.0',
      exports: { default: './src/plugin.mjs' },
    });
    await project.write('vendor/acme/src/plugin.mjs', OBJECT_PLUGIN('vendored'));

    const plugin = await loadPlugin(join(project.root, 'vendor', 'acme'));

    expect(plugin).toMatchObject({ name: 'vendored', version: '1.0.0', root: join(project.root, 'vendor', 'acme') });
  });

  it('loads a file by absolute path, relative path and file: URL, taking its folder as the root', async () => {
    const file = await project.write('scripts/my-tools.mjs', OBJECT_PLUGIN('from-file'));

    const absolute = await loadPlugin(file);
    const relative = await loadPlugin('../scripts/my-tools.mjs', { from: join(project.root, 'node_modules') });
    const url = await loadPlugin(pathToFileURL(file).href);

    for (const plugin of [absolute, relative, url]) {
      expect(plugin).toMatchObject({ name: 'from-file', root: join(project.root, 'scripts') });
      expect(plugin.tools.map((tool) => tool.name)).toEqual(['first_tool']);
    }
  });

  it('names a bare-function file after the file', async () => {
    await project.write('scripts/quick.mjs', 'export default () => {};\n');
    expect((await loadPlugin('./scripts/quick.mjs', { from: project.root })).name).toBe('quick');
  });

  it('reports a missing path with the folder it was resolved from', async () => {
    const error = await loadError(loadPlugin('./plugins/absent', { from: project.root }));
    expect(error.reason).toBe('not-found');
    expect(error.path).toBe(join(project.root, 'plugins', 'absent'));
    expect(error.message).toContain(`relative paths are taken from ${project.root}`);
  });

  it('reports a folder with no entry file', async () => {
    await project.write('plugins/empty/readme.txt', 'nothing here');
    const error = await loadError(loadPlugin('./plugins/empty', { from: project.root }));
    expect(error.reason).toBe('no-entry');
    expect(error.message).toContain('index.js, index.mjs');
  });

  it('reports a package.json that is not JSON', async () => {
    await project.write('plugins/broken-json/package.json', '{ "name": ');
    const error = await loadError(loadPlugin('./plugins/broken-json', { from: project.root }));
    expect(error.reason).toBe('no-entry');
    expect(error.message).toContain('is not valid JSON');
  });
});

describe('loadPlugin: what the module exports', () => {
  it('accepts a named export "plugin"', async () => {
    await project.write(
      'named.mjs',
      `import { z } from 'zod';
${toolSource('tool', 'named_tool')}
export const plugin = { name: 'named', version: '9.9.9', setup(api) { api.registerTool(tool); } };
`,
    );
    const plugin = await loadPlugin('./named.mjs', { from: project.root });
    expect(plugin).toMatchObject({ name: 'named', version: '9.9.9' });
    expect(plugin.tools.map((tool) => tool.name)).toEqual(['named_tool']);
  });

  it('accepts a CommonJS module exporting { name, setup }, calling setup as a method', async () => {
    await project.write(
      'legacy/plugin.cjs',
      `const { z } = require('zod');
module.exports = {
  name: 'legacy',
  prefix: 'old_',
  setup(api) {
    api.registerTool({ name: this.prefix + 'tool', description: 'Old style.', inputSchema: z.object({}), permission: 'write', execute: async () => ({ content: [] }) });
  },
};
`,
    );
    const plugin = await loadPlugin('./legacy/plugin.cjs', { from: pathToFileURL(`${project.root}/`).href });
    expect(plugin.name).toBe('legacy');
    expect(plugin.tools.map((tool) => [tool.name, tool.permission])).toEqual([['old_tool', 'write']]);
  });

  it('refuses a module without a plugin export and lists what it does export', async () => {
    await project.write('wrong.mjs', 'export const alpha = 1;\nexport function beta() {}\n');
    const error = await loadError(loadPlugin('./wrong.mjs', { from: project.root }));
    expect(error.reason).toBe('bad-export');
    expect(error.message).toBe(
      'Plugin "./wrong.mjs" must export a default function (api) => void or { name, setup }; it exports: alpha, beta.',
    );
  });

  it('refuses { setup } without a name, suggesting one', async () => {
    await project.write('nameless/index.mjs', 'export default { setup() {} };\n');
    const error = await loadError(loadPlugin('./nameless', { from: project.root }));
    expect(error.reason).toBe('bad-export');
    expect(error.message).toContain('add name: "nameless"');
  });

  it('refuses a default export that is neither a function nor { name, setup }', async () => {
    await project.write('number.mjs', 'export default 42;\n');
    const error = await loadError(loadPlugin('./number.mjs', { from: project.root }));
    expect(error.reason).toBe('bad-export');
    expect(error.message).toContain('it exports: default');
  });

  it('reports a module that throws while it is imported as setup-failed, with the cause', async () => {
    await project.write('explodes.mjs', 'throw new Error("top-level boom");\n');
    const error = await loadError(loadPlugin('./explodes.mjs', { from: project.root }));
    expect(error.reason).toBe('setup-failed');
    expect(error.message).toContain('top-level boom');
    expect((error.cause as Error).message).toBe('top-level boom');
  });
});
