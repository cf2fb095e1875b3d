import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, type FsToolsFixture, makeTempRoot, removeTempRoot, startFsTools, textOf } from './test-support.js';

let fixture: FsToolsFixture;
let root: string;

beforeAll(async () => {
  fixture = await startFsTools();
  root = await makeTempRoot({
    '.gitignore': 'ignored/\n',
    'src/app.ts': 'import x from "y";\nfunction main() {\n  console.log("Hello");\n}\nexport default main;\n',
    'src/util.js': 'export function helper() {\n  return "hello";\n}\n',
    'docs/guide.md': '# Guide\nSay hello to the world.\n',
    'script.py': 'def hello():\n    pass\n',
    'ignored/secret.ts': 'hello from ignored\n',
    'data.bin': Uint8Array.from([104, 101, 108, 108, 111, 0, 1]),
    'evil.txt': `${'a'.repeat(5000)}!\n`,
  });
  await utimes(join(root, 'src/app.ts'), 3_000_000, 3_000_000);
  await utimes(join(root, 'src/util.js'), 2_000_000, 2_000_000);
  await utimes(join(root, 'docs/guide.md'), 1_000_000, 1_000_000);
  await utimes(join(root, 'script.py'), 500_000, 500_000);
});

afterAll(async () => {
  await fixture.close();
  await removeTempRoot(root);
});

describe('grep', () => {
  it('lists matching files newest first by default, skipping ignored and binary files', async () => {
    const result = await callTool(fixture, 'grep', { pattern: 'hello' }, root);
    expect(textOf(result)).toBe('Found 3 files\n/src/util.js\n/docs/guide.md\n/script.py');
  });

  it('ignores case on request', async () => {
    const text = textOf(await callTool(fixture, 'grep', { pattern: 'hello', case_insensitive: true }, root));
    expect(text).toBe('Found 4 files\n/src/app.ts\n/src/util.js\n/docs/guide.md\n/script.py');
  });

  it('shows content with line numbers and context lines', async () => {
    const result = await callTool(fixture, 'grep', { pattern: 'console', output_mode: 'content', context: 1 }, root);
    expect(textOf(result)).toBe(
      '/src/app.ts-2-function main() {\n/src/app.ts:3:  console.log("Hello");\n/src/app.ts-4-}',
    );
    const before = await callTool(
      fixture,
      'grep',
      { pattern: 'console', output_mode: 'content', context_before: 2, line_numbers: false },
      root,
    );
    expect(textOf(before)).toBe(
      '/src/app.ts-import x from "y";\n/src/app.ts-function main() {\n/src/app.ts:  console.log("Hello");',
    );
    const after = await callTool(
      fixture,
      'grep',
      { pattern: 'console', output_mode: 'content', context_after: 1 },
      root,
    );
    expect(textOf(after)).toBe('/src/app.ts:3:  console.log("Hello");\n/src/app.ts-4-}');
  });

  it('counts matches per file', async () => {
    const text = textOf(await callTool(fixture, 'grep', { pattern: 'e', output_mode: 'count', type: 'js' }, root));
    expect(text).toBe('Found 2 matching lines in 1 file\n/src/util.js:2');
  });

  it('filters by type and by glob', async () => {
    expect(textOf(await callTool(fixture, 'grep', { pattern: 'hello', type: 'py' }, root))).toBe(
      'Found 1 file\n/script.py',
    );
    expect(textOf(await callTool(fixture, 'grep', { pattern: 'hello', glob: '*.{md,js}' }, root))).toBe(
      'Found 2 files\n/src/util.js\n/docs/guide.md',
    );
    expect(textOf(await callTool(fixture, 'grep', { pattern: 'hello', glob: 'docs/**' }, root))).toBe(
      'Found 1 file\n/docs/guide.md',
    );
    const unknown = await callTool(fixture, 'grep', { pattern: 'x', type: 'cobol' }, root);
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('Unknown file type "cobol"');
  });

  it('searches a single file or a folder given as path', async () => {
    expect(
      textOf(await callTool(fixture, 'grep', { pattern: 'pass', path: 'script.py', output_mode: 'content' }, root)),
    ).toBe('/script.py:2:    pass');
    expect(textOf(await callTool(fixture, 'grep', { pattern: 'hello', path: '/src' }, root))).toBe(
      'Found 1 file\n/src/util.js',
    );
  });

  it('limits output with head_limit and says so', async () => {
    const result = await callTool(
      fixture,
      'grep',
      { pattern: '.', output_mode: 'content', head_limit: 2, path: 'src/app.ts' },
      root,
    );
    const text = textOf(result);
    expect(text.startsWith('/src/app.ts:1:import x from "y";\n/src/app.ts:2:function main() {\n\n[')).toBe(true);
    expect(text).toContain('first 2 of 5 lines');
  });

  it('matches across lines in multiline mode only', async () => {
    const input = { pattern: 'main\\(\\) \\{\\n\\s+console', output_mode: 'content' as const };
    expect(textOf(await callTool(fixture, 'grep', input, root))).toContain('No matches found');
    expect(textOf(await callTool(fixture, 'grep', { ...input, multiline: true }, root))).toBe(
      '/src/app.ts:2:function main() {\n/src/app.ts:3:  console.log("Hello");',
    );
  });

  it('runs a catastrophic-backtracking pattern in linear time and refuses lookaround with a hint', async () => {
    const result = await callTool(fixture, 'grep', { pattern: '^(a+)+$', path: 'evil.txt' }, root);
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toContain('No matches found');
    const lookahead = await callTool(fixture, 'grep', { pattern: 'foo(?=bar)' }, root);
    expect(lookahead.isError).toBe(true);
    expect(textOf(lookahead)).toContain('RE2 syntax');
  });

  it('reports what it searched in metadata', async () => {
    const result = await callTool(fixture, 'grep', { pattern: 'hello', type: 'ts' }, root);
    expect(result.metadata).toMatchObject({ filesSearched: 1, filesMatched: 0 });
  });
});
