import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  callTool,
  type FsToolsFixture,
  makeTempRoot,
  removeTempRoot,
  startFsTools,
  textOf,
  writeFiles,
} from './test-support.js';

let fixture: FsToolsFixture;
let root: string;

beforeAll(async () => {
  fixture = await startFsTools();
  root = await makeTempRoot();
});

afterAll(async () => {
  await fixture.close();
  await removeTempRoot(root);
});

const contentOf = (path: string) => readFile(join(root, path), 'utf8');

describe('write', () => {
  it('creates a file with its parent folders and says so', async () => {
    const result = await callTool(fixture, 'write', { file_path: 'new/deep/file.txt', content: 'a\nb\n' }, root);
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toBe('Created /new/deep/file.txt (2 lines, 4 bytes).');
    expect(await contentOf('new/deep/file.txt')).toBe('a\nb\n');
    expect(result.metadata).toMatchObject({ created: true, bytes: 4, lines: 2 });
  });

  it('overwrites an existing file and says so', async () => {
    await writeFiles(root, { 'over.txt': 'old content that is longer\n' });
    const result = await callTool(fixture, 'write', { file_path: 'over.txt', content: 'né' }, root);
    expect(textOf(result)).toBe('Overwrote /over.txt (1 line, 3 bytes).');
    expect(await contentOf('over.txt')).toBe('né');
  });

  it('refuses to write over a directory', async () => {
    await writeFiles(root, { 'folder/x.txt': 'x' });
    const result = await callTool(fixture, 'write', { file_path: 'folder', content: 'y' }, root);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('/folder is a directory');
  });
});

describe('edit', () => {
  beforeEach(async () => {
    await writeFiles(root, {
      'code.ts': 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n',
      'crlf.txt': 'alpha\r\nbeta\r\ngamma\r\n',
      'indented.py': 'def f():\n    return 1\n',
    });
  });

  it('replaces a unique string and reports one replacement with the changed lines', async () => {
    const result = await callTool(
      fixture,
      'edit',
      { file_path: 'code.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' },
      root,
    );
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toContain('Edited /code.ts: replaced 1 occurrence.');
    expect(textOf(result)).toContain('     2\tconst b = 3;');
    expect(await contentOf('code.ts')).toBe('const a = 1;\nconst b = 3;\nconst a2 = 1;\n');
  });

  it('refuses an ambiguous string, saying how many matches', async () => {
    const result = await callTool(
      fixture,
      'edit',
      { file_path: 'code.ts', old_string: '= 1;', new_string: '= 9;' },
      root,
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Found 2 matches');
    expect(textOf(result)).toContain('replace_all');
    expect(await contentOf('code.ts')).toBe('const a = 1;\nconst b = 2;\nconst a2 = 1;\n');
  });

  it('replaces every occurrence with replace_all', async () => {
    const result = await callTool(
      fixture,
      'edit',
      { file_path: 'code.ts', old_string: '= 1;', new_string: '= $&9;', replace_all: true },
      root,
    );
    expect(textOf(result)).toContain('replaced 2 occurrences');
    expect(await contentOf('code.ts')).toBe('const a = $&9;\nconst b = 2;\nconst a2 = $&9;\n');
  });

  it('explains a missing string, pointing at a whitespace-only difference', async () => {
    const result = await callTool(
      fixture,
      'edit',
      { file_path: 'indented.py', old_string: 'def f():\nreturn 1', new_string: 'x' },
      root,
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('old_string was not found in /indented.py');
    expect(textOf(result)).toContain('starts at line 1');
  });

  it('points out line-number prefixes copied from read', async () => {
    const result = await callTool(
      fixture,
      'edit',
      { file_path: 'code.ts', old_string: '     2\tconst b = 2;', new_string: 'x' },
      root,
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('line-number prefixes');
  });

  it('refuses identical strings', async () => {
    const result = await callTool(
      fixture,
      'edit',
      { file_path: 'code.ts', old_string: 'const b', new_string: 'const b' },
      root,
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('identical');
  });

  it('keeps CRLF line endings when the strings use LF', async () => {
    const result = await callTool(
      fixture,
      'edit',
      { file_path: 'crlf.txt', old_string: 'alpha\nbeta', new_string: 'ALPHA\nBETA\nmore' },
      root,
    );
    expect(result.isError).not.toBe(true);
    expect(await contentOf('crlf.txt')).toBe('ALPHA\r\nBETA\r\nmore\r\ngamma\r\n');
    expect(result.metadata).toMatchObject({ lineEndings: 'crlf', replacements: 1 });
  });

  it('creates a missing file when old_string is empty, and refuses a missing file otherwise', async () => {
    const created = await callTool(
      fixture,
      'edit',
      { file_path: 'fresh/new.txt', old_string: '', new_string: 'hi\n' },
      root,
    );
    expect(textOf(created)).toContain('Created /fresh/new.txt');
    expect(await contentOf('fresh/new.txt')).toBe('hi\n');
    const missing = await callTool(
      fixture,
      'edit',
      { file_path: 'missing.txt', old_string: 'a', new_string: 'b' },
      root,
    );
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('File does not exist: /missing.txt');
  });

  it('refuses files that are not valid UTF-8, leaving their bytes alone', async () => {
    const bytes = Uint8Array.from([0x61, 0xff, 0x62, 0x0a]);
    await writeFiles(root, { 'latin.txt': bytes });
    const result = await callTool(fixture, 'edit', { file_path: 'latin.txt', old_string: 'a', new_string: 'c' }, root);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('not valid UTF-8');
    expect(new Uint8Array(await readFile(join(root, 'latin.txt')))).toEqual(bytes);
  });
});
