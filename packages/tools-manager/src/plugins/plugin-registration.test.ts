import { join } from 'node:path';
import { loadSkills, type ToolLogger } from '@boxagnts/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadPlugin } from './load-plugin.js';
import { isPluginLoadError, type PluginLoadError } from './plugin-load-error.js';
import type { PluginApi } from './plugin-types.js';
import { createPluginProject, type PluginProject, toolSource } from './test/plugin-fixtures.js';

async function loadError(promise: Promise<unknown>): Promise<PluginLoadError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(isPluginLoadError(error), `expected a PluginLoadError, got ${String(error)}`).toBe(true);
  return error as PluginLoadError;
}

/** A plugin that registers whatever the host passes as `options.tools` (to test validation with one file). */
const REGISTER_FROM_OPTIONS =
  'export default { name: "relay", setup(api) { api.registerTools(api.options.tools); } };\n';

const validTool = {
  name: 'valid_tool',
  description: 'A valid tool.',
  inputSchema: z.object({ value: z.string() }),
  permission: 'read-only',
  execute: async () => ({ content: [] }),
};

let project: PluginProject;
beforeEach(async () => {
  project = await createPluginProject();
});
afterEach(async () => {
  await project.remove();
});

describe('plugin setup', () => {
  it('reports a setup that throws as setup-failed, keeping the cause', async () => {
    await project.write(
      'throws.mjs',
      'export default { name: "thrower", setup() { throw new Error("needs ACME_TOKEN"); } };\n',
    );
    const error = await loadError(loadPlugin('./throws.mjs', { from: project.root }));
    expect(error.reason).toBe('setup-failed');
    expect(error.pluginName).toBe('thrower');
    expect(error.message).toBe(
      'Plugin "thrower" failed in setup: needs ACME_TOKEN; fix the plugin or the options passed to it.',
    );
    expect((error.cause as Error).message).toBe('needs ACME_TOKEN');
  });

  it('reports an async setup that rejects as setup-failed', async () => {
    await project.write(
      'rejects.mjs',
      'export default async function (api) { await new Promise((resolve) => setImmediate(resolve)); throw new TypeError("late failure"); }\n',
    );
    const error = await loadError(loadPlugin('./rejects.mjs', { from: project.root }));
    expect(error.reason).toBe('setup-failed');
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('waits for an async setup that registers after awaiting I/O', async () => {
    await project.write('names.json', JSON.stringify(['alpha', 'beta']));
    await project.write(
      'async/index.mjs',
      `import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
export default async function (api) {
  const names = JSON.parse(await readFile(join(api.pluginRoot, '..', 'names.json'), 'utf8'));
  for (const name of names) {
    api.registerTool({ name, description: 'Tool ' + name, inputSchema: z.object({}), permission: 'read-only', execute: async () => ({ content: [] }) });
  }
}
`,
    );
    const plugin = await loadPlugin('./async', { from: project.root });
    expect(plugin.tools.map((tool) => tool.name)).toEqual(['alpha', 'beta']);
  });

  it('passes the host options, its name and root, and a logger tagged with the plugin', async () => {
    await project.writePackageJson('node_modules/opts-plugin', { name: 'opts-plugin', exports: './index.mjs' });
    await project.write(
      'node_modules/opts-plugin/index.mjs',
      `export default function (api) {
  api.logger.info('configured', { limit: api.options.limit });
  api.options.report({ name: api.pluginName, root: api.pluginRoot, options: api.options, frozen: Object.isFrozen(api.options) });
}
`,
    );
    const lines: Array<[string, string, Record<string, unknown> | undefined]> = [];
    const logger: ToolLogger = {
      debug: (message, data) => lines.push(['debug', message, data]),
      info: (message, data) => lines.push(['info', message, data]),
      warn: (message, data) => lines.push(['warn', message, data]),
      error: (message, data) => lines.push(['error', message, data]),
    };
    let seen: Record<string, unknown> | undefined;
    const report = (value: Record<string, unknown>) => {
      seen = value;
    };

    await loadPlugin('opts-plugin', { from: project.root, logger, options: { limit: 500, report } });

    expect(seen).toEqual({
      name: 'opts-plugin',
      root: join(project.root, 'node_modules', 'opts-plugin'),
      options: { limit: 500, report },
      frozen: true,
    });
    expect(lines).toEqual([['info', 'configured', { plugin: 'opts-plugin', limit: 500 }]]);
  });

  it('refuses registrations after setup has finished and leaves the loaded tools unchanged', async () => {
    await project.write('keeps.mjs', 'export default function (api) { api.options.keep(api); }\n');
    let kept: PluginApi | undefined;
    const plugin = await loadPlugin('./keeps.mjs', {
      from: project.root,
      options: { keep: (api: PluginApi) => (kept = api) },
    });

    let late: unknown;
    try {
      kept?.registerTool(validTool as never);
    } catch (error) {
      late = error;
    }
    expect(isPluginLoadError(late) && late.reason).toBe('setup-failed');
    expect((late as Error).message).toContain('after its setup had finished');
    expect(() => kept?.registerSkillFolder(project.root)).toThrow(/after its setup had finished/);
    expect(plugin.tools).toEqual([]);
    expect(plugin.skillFolders).toEqual([]);
  });

  it('stops waiting for a setup that never finishes when the signal aborts', async () => {
    await project.write('hangs.mjs', 'export default () => new Promise(() => {});\n');
    const controller = new AbortController();
    const loading = loadPlugin('./hangs.mjs', { from: project.root, signal: controller.signal });
    controller.abort(new Error('host shutting down'));
    await expect(loading).rejects.toThrow('host shutting down');
  });
});

describe('tool registration', () => {
  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['a name with spaces', { ...validTool, name: 'bad name' }, 'name must be 1-64 letters'],
    ['a name over 64 characters', { ...validTool, name: 'x'.repeat(65) }, 'name must be 1-64 letters'],
    ['an empty description', { ...validTool, description: '  ' }, 'description must be a non-empty string'],
    [
      'a JSON Schema instead of zod',
      { ...validTool, inputSchema: { type: 'object' } },
      'inputSchema must be a zod schema',
    ],
    ['a non-object schema', { ...validTool, inputSchema: z.string() }, 'inputSchema is a string schema'],
    [
      'an unknown permission',
      { ...validTool, permission: 'admin' },
      'permission must be one of read-only, write, execute, network (got "admin")',
    ],
    ['no execute', { ...validTool, execute: 'run' }, 'execute must be a function'],
    ['a negative timeout', { ...validTool, timeoutMs: -5 }, 'timeoutMs, when given, must be a positive number'],
  ];

  it.each(invalid)('refuses a tool with %s', async (_case, tool, problem) => {
    await project.write('relay.mjs', REGISTER_FROM_OPTIONS);
    const error = await loadError(loadPlugin('./relay.mjs', { from: project.root, options: { tools: [tool] } }));
    expect(error.reason).toBe('invalid-tool');
    expect(error.toolName).toBe(typeof tool.name === 'string' ? tool.name : '(unnamed)');
    expect(error.message).toContain(`Plugin "relay" registered an invalid tool "${String(tool.name)}": `);
    expect(error.message).toContain(problem);
  });

  it('lists every problem of a tool written in plain JavaScript', async () => {
    await project.write(
      'sloppy.mjs',
      `export default function (api) {
  api.registerTool({ name: 'sloppy', description: '', inputSchema: {}, permission: 'root' });
}
`,
    );
    const error = await loadError(loadPlugin('./sloppy.mjs', { from: project.root }));
    expect(error.reason).toBe('invalid-tool');
    expect(error.message).toContain('description must be');
    expect(error.message).toContain('inputSchema must be a zod schema');
    expect(error.message).toContain('permission must be one of');
    expect(error.message).toContain('execute must be a function');
  });

  it('fails the load even when setup swallows the registration error', async () => {
    await project.write(
      'swallow.mjs',
      `export default function (api) {
  try { api.registerTool({ name: 'no good' }); } catch {}
}
`,
    );
    const error = await loadError(loadPlugin('./swallow.mjs', { from: project.root }));
    expect(error.reason).toBe('invalid-tool');
  });

  it('refuses two tools with the same name', async () => {
    await project.write(
      'twice.mjs',
      `import { z } from 'zod';
${toolSource('one', 'same_name', 'one')}
${toolSource('two', 'same_name', 'two')}
export default { name: 'twice', setup(api) { api.registerTool(one); api.registerTool(two); } };
`,
    );
    const error = await loadError(loadPlugin('./twice.mjs', { from: project.root }));
    expect(error.reason).toBe('duplicate-tool');
    expect(error.toolName).toBe('same_name');
    expect(error.message).toBe(
      'Plugin "twice" registered two tools named "same_name"; tool names must be unique, rename one.',
    );
  });

  it('refuses registerTools with something other than an array', async () => {
    await project.write('relay.mjs', REGISTER_FROM_OPTIONS);
    const error = await loadError(loadPlugin('./relay.mjs', { from: project.root, options: { tools: validTool } }));
    expect(error.reason).toBe('invalid-tool');
    expect(error.message).toContain('pass an array of tools');
  });
});

describe('skill folder registration', () => {
  const SKILL = '---\nname: summarise\ndescription: Summarise a document.\n---\nRead the document and summarise it.\n';

  it('resolves relative folders from the plugin root, keeps absolute ones, and loadSkills reads them', async () => {
    await project.write('node_modules/skilled/skills/summarise/SKILL.md', SKILL);
    const shared = join(project.root, 'shared-skills');
    await project.write('shared-skills/.keep', '');
    await project.writePackageJson('node_modules/skilled', { name: 'skilled', exports: './index.mjs' });
    await project.write(
      'node_modules/skilled/index.mjs',
      `export default function (api) {
  api.registerSkillFolder('skills');
  api.registerSkillFolder('./skills/');
  api.registerSkillFolder(api.options.shared);
}
`,
    );

    const plugin = await loadPlugin('skilled', { from: project.root, options: { shared } });

    const own = join(project.root, 'node_modules', 'skilled', 'skills');
    expect(plugin.skillFolders).toEqual([own, shared]);
    const catalogue = await loadSkills({ folders: plugin.skillFolders });
    expect(catalogue.skills.map((skill) => [skill.name, skill.directory])).toEqual([
      ['summarise', join(own, 'summarise')],
    ]);
  });

  it('refuses a skill folder that does not exist, or is a file', async () => {
    await project.write('plugin/not-a-folder.md', 'text');
    await project.write(
      'plugin/index.mjs',
      'export default function (api) { api.registerSkillFolder(api.options.folder); }\n',
    );

    const missing = await loadError(loadPlugin('./plugin', { from: project.root, options: { folder: 'skills' } }));
    expect(missing.reason).toBe('invalid-tool');
    expect(missing.path).toBe(join(project.root, 'plugin', 'skills'));
    expect(missing.message).toContain('does not exist');

    const file = await loadError(
      loadPlugin('./plugin', { from: project.root, options: { folder: 'not-a-folder.md' } }),
    );
    expect(file.message).toContain('is not a folder');
  });
});
