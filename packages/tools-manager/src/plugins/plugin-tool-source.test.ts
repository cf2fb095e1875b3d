import { join } from 'node:path';
import { executeTool, resultText, type ToolSource } from '@boxagnts/tools';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { loadPlugin } from './load-plugin.js';
import { isPluginLoadError } from './plugin-load-error.js';
import { pluginToolSource } from './plugin-tool-source.js';
import { definePlugin, type PluginApi, type ToolPlugin } from './plugin-types.js';
import { createPluginProject, type PluginProject, toolSource } from './test/plugin-fixtures.js';

let project: PluginProject;
beforeEach(async () => {
  project = await createPluginProject();
  await project.writePackageJson('node_modules/@acme/greeter', {
    name: '@acme/greeter',
    version: '1.2.0',
    exports: { import: './index.mjs' },
  });
  await project.write(
    'node_modules/@acme/greeter/index.mjs',
    `import { z } from 'zod';
${toolSource('greet', 'greet', 'hello')}
let setups = 0;
export default {
  name: 'greeter',
  setup(api) {
    setups += 1;
    api.registerTool({ ...greet, description: greet.description + ' (setup ' + setups + ', ' + api.options.tone + ')' });
  },
};
`,
  );
});
afterEach(async () => {
  await project.remove();
});

const context = {
  root: process.cwd(),
  signal: new AbortController().signal,
  sessionId: 'session-source',
  turnId: 'turn-1',
  toolCallId: 'call_1',
};

describe('pluginToolSource', () => {
  it('loads a plugin by package name on load(), running setup again on every refresh', async () => {
    const source: ToolSource = pluginToolSource('@acme/greeter', { from: project.root, options: { tone: 'warm' } });
    expect(source).toMatchObject({ name: 'plugin:@acme/greeter', kind: 'plugin', plugin: undefined });

    const first = await source.load();
    expect(first.map((tool) => [tool.name, tool.description])).toEqual([
      ['greet', 'Answers with a fixed text and the input. (setup 1, warm)'],
    ]);
    expect(resultText(await executeTool(first[0]!, { value: 'Ada' }, context))).toBe('hello:Ada');
    expect((source as ReturnType<typeof pluginToolSource>).plugin).toMatchObject({ name: 'greeter', version: '1.2.0' });

    const second = await source.load();
    expect(second[0]?.description).toContain('(setup 2, warm)');
  });

  it('offers an already loaded plugin under its own name', async () => {
    const plugin = await loadPlugin('@acme/greeter', { from: project.root, options: { tone: 'dry' } });
    const source = pluginToolSource(plugin);
    expect(source.name).toBe('plugin:greeter');
    expect(source.plugin).toBe(plugin);
    expect(await source.load()).toBe(plugin.tools);
    expect(pluginToolSource(plugin, { name: 'renamed' }).name).toBe('plugin:renamed');
  });

  it('names a path source after its file or folder, or as told', () => {
    expect(pluginToolSource('./plugins/my-tools.mjs').name).toBe('plugin:my-tools');
    expect(pluginToolSource('../vendor/acme/').name).toBe('plugin:acme');
    expect(pluginToolSource('.', { name: 'local' }).name).toBe('plugin:local');
  });

  it('rejects load() with the PluginLoadError when the plugin cannot load', async () => {
    const source = pluginToolSource('./missing-plugin', { from: project.root });
    const error = await source.load().catch((reason: unknown) => reason);
    expect(isPluginLoadError(error) && error.reason).toBe('not-found');
    expect(error).toHaveProperty('path', join(project.root, 'missing-plugin'));
  });

  it('rejects load() at once for an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(pluginToolSource('@acme/greeter', { from: project.root }).load(controller.signal)).rejects.toThrow(
      'cancelled',
    );
  });
});

describe('definePlugin', () => {
  it('returns the plugin unchanged and types setup’s api', () => {
    const objectPlugin = { name: 'typed', setup: (api: PluginApi) => api.registerTools([]) };
    const functionPlugin = (api: PluginApi) => api.registerSkillFolder('skills');
    expect(definePlugin(objectPlugin)).toBe(objectPlugin);
    expect(definePlugin(functionPlugin)).toBe(functionPlugin);
    expectTypeOf(definePlugin(objectPlugin)).toExtend<ToolPlugin>();
  });
});
