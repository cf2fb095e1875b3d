// A command tool as a third party would make it: its own WIT package and world (standard WASI
// imports, `wasi:cli/run` exported), its own JavaScript, built with the componentize-qjs CLI in a
// folder of its own, and shipped as `.wasm` + manifest in a workspace `tools/` folder. Nothing of
// this package's WIT, fixtures or build helpers is used to make it.
import { execFile } from 'node:child_process';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ComponentRuntime, createComponentRuntime } from './component-runtime.js';
import { tempDir, toolContext, WIT_DIR } from './test-fixtures.js';

const run = promisify(execFile);

const WORLD = `package thirdparty:line-count@1.0.0;

world line-count {
  import wasi:cli/environment@0.2.12;
  import wasi:cli/stdout@0.2.12;
  import wasi:io/streams@0.2.12;
  import wasi:filesystem/types@0.2.12;
  import wasi:filesystem/preopens@0.2.12;
  export wasi:cli/run@0.2.12;
}
`;

const SOURCE = `import { getArguments } from 'wasi:cli/environment@0.2.12';
import { getStdout } from 'wasi:cli/stdout@0.2.12';
import { getDirectories } from 'wasi:filesystem/preopens@0.2.12';

const ascii = (bytes) => { let text = ''; for (const byte of bytes) text += String.fromCharCode(byte); return text; };
const bytesOf = (text) => Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff);

export const run = {
  run() {
    const argv = getArguments();
    const at = argv.indexOf('--file-path');
    const [[root]] = getDirectories();
    const file = root.openAt({}, argv[at + 1].replace(/^\\/+/, ''), {}, { read: true });
    const [bytes] = file.read(65536, 0);
    const text = ascii(bytes);
    const lines = text.split('\\n').filter((line) => line !== '');
    const shown = argv.includes('--show-first') ? ' First: ' + lines[0] : '';
    const result = { content: argv[0] + ': ' + lines.length + ' lines.' + shown, metadata: { argv } };
    getStdout().blockingWriteAndFlush(bytesOf(JSON.stringify(result)));
  },
};
`;

const MANIFEST = {
  name: 'line_count',
  description: 'Count the non-empty lines of a file.',
  input_schema: {
    type: 'object',
    properties: { file_path: { type: 'string' }, show_first: { type: 'boolean' }, verbose: { type: 'boolean' } },
    required: ['file_path'],
  },
  permission: 'read-only',
};

let runtime: ComponentRuntime;
let workspace: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  workspace = await tempDir('third-party');
  const project = join(workspace.path, 'line-count-src');
  await mkdir(join(project, 'wit'), { recursive: true });
  await writeFile(join(project, 'wit', 'world.wit'), WORLD);
  // The standard WASI definitions, as any third party would vendor them.
  await cp(join(WIT_DIR, 'deps'), join(project, 'wit', 'deps'), { recursive: true });
  await writeFile(join(project, 'line-count.js'), SOURCE);
  const tools = join(workspace.path, 'tools');
  await mkdir(tools);
  const cli = join(
    dirname(createRequire(import.meta.url).resolve('componentize-qjs/package.json')),
    'bin',
    'componentize-qjs',
  );
  await run(
    process.execPath,
    [
      cli,
      '--wit',
      join(project, 'wit'),
      '--js',
      join(project, 'line-count.js'),
      '--world',
      'line-count',
      '--sync',
      '-o',
      join(tools, 'line-count.wasm'),
    ],
    { cwd: project },
  );
  await writeFile(join(tools, 'line-count.json'), JSON.stringify(MANIFEST));
  await writeFile(join(workspace.path, 'notes.txt'), 'alpha\nbeta\n\ngamma\n');
  runtime = createComponentRuntime({ workers: 1 });
}, 120_000);

afterAll(async () => {
  await runtime?.close();
  await workspace?.remove();
});

describe('a command tool built outside this package', () => {
  it('loads from a tools/ folder and runs with the flag protocol', async () => {
    const { tools, warnings } = await runtime.loadToolsFolder(join(workspace.path, 'tools'));
    expect(warnings).toEqual([]);
    expect(tools.map((tool) => [tool.name, tool.permission])).toEqual([['line_count', 'read-only']]);
    const tool = tools[0];
    if (tool === undefined) return;
    const result = await tool.execute(
      { file_path: 'notes.txt', show_first: true, verbose: false },
      toolContext(workspace.path),
    );
    expect(result.isError).not.toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'line_count: 3 lines. First: alpha' }]);
    // argv[0] is the tool name; snake_case keys became --kebab-case; true is a bare flag; false is left out.
    expect(result.metadata?.argv).toEqual(['line_count', '--file-path', 'notes.txt', '--show-first']);
  });
});
