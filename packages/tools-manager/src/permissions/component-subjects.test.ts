// The same dodges as schema-subjects.test.ts, against a real WASI component tool (loose zod
// schema, the component's own JSON Schema), built from wasm-tools' own test component.
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type AnyTool, resultText, type ToolContext } from '@boxagnts/tools';
import { buildJsComponent, type ComponentRuntime, createComponentRuntime } from '@boxagnts/wasm-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSet } from '../tool-set/create-tool-set.js';

const wasmToolsDir = dirname(createRequire(import.meta.url).resolve('@boxagnts/wasm-tools/package.json'));

let runtime: ComponentRuntime;
let componentTools: AnyTool[];
let root: string;

beforeAll(async () => {
  const built = await buildJsComponent({
    sourcePath: join(wasmToolsDir, 'test-components', 'function-basic.js'),
    witPath: join(wasmToolsDir, 'wit'),
    world: 'function-tool',
  });
  runtime = createComponentRuntime({ workers: 1, timeoutMs: 15_000 });
  componentTools = await runtime.loadFunctionComponent({ path: built.path });
  root = await realpath(await mkdtemp(join(tmpdir(), 'tm-component-subjects-')));
  await writeFile(join(root, 'secret.txt'), 'component secret\n');
  await writeFile(join(root, 'open.txt'), 'open\n');
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

const context = (): ToolContext => ({
  root,
  signal: new AbortController().signal,
  sessionId: 's',
  turnId: 't',
  toolCallId: 'c',
});

function named(suffix: string): string {
  const tool = componentTools.find((candidate) => candidate.name.endsWith(suffix));
  if (tool === undefined) throw new Error(`no ${suffix} in ${componentTools.map((each) => each.name).join(', ')}`);
  return tool.name;
}

describe('component tools cannot dodge the rules with extra keys', () => {
  it('a deny on the path holds with an earlier `command` key', async () => {
    const read = named('read_file');
    const toolSet = await createToolSet({
      sources: [{ name: 'component', kind: 'sandbox', load: async () => componentTools }],
      permissions: { rules: { deny: [`${read}(**/secret.txt)`] } },
    });
    try {
      const dodge = await toolSet.execute(read, { path: 'secret.txt', command: 'ls' }, context());
      expect(dodge.isError).toBe(true);
      expect(resultText(dodge)).not.toContain('component secret');
      expect(resultText(await toolSet.execute(read, { path: 'open.txt', command: 'ls' }, context()))).toBe('open\n');
    } finally {
      await toolSet.close();
    }
  });

  it('accept-edits does not write where an undeclared `file_path` points the rule', async () => {
    const write = named('write_file');
    const toolSet = await createToolSet({
      sources: [{ name: 'component', kind: 'sandbox', load: async () => componentTools }],
      permissions: { mode: 'accept-edits' },
    });
    try {
      const dodge = await toolSet.execute(
        write,
        { path: '../escaped.txt', file_path: 'src/a.ts', content: 'x' },
        context(),
      );
      expect(dodge.isError).toBe(true);
      expect(resultText(dodge)).toContain('accept-edits');
      await expect(readFile(join(dirname(root), 'escaped.txt'), 'utf8')).rejects.toThrow();
      const fine = await toolSet.execute(write, { path: 'new.txt', file_path: 'elsewhere', content: 'y' }, context());
      expect(fine.isError, resultText(fine)).not.toBe(true);
      expect(await readFile(join(root, 'new.txt'), 'utf8')).toBe('y');
    } finally {
      await toolSet.close();
    }
  });
});
