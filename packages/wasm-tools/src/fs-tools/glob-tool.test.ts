import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  root = await makeTempRoot({
    '.gitignore': 'node_modules/\n*.log\nbuild\n!keep.log\n',
    'old.ts': 'x',
    'mid.ts': 'x',
    'new.ts': 'x',
    'src/app.ts': 'x',
    'src/app.test.ts': 'x',
    'src/.gitignore': 'generated/\n',
    'src/generated/gen.ts': 'x',
    'src/readme.md': 'x',
    'debug.log': 'x',
    'keep.log': 'x',
    'node_modules/pkg/index.ts': 'x',
    'build/out.ts': 'x',
    '.git/config.ts': 'x',
    '.hidden/dot.ts': 'x',
  });
  const stamp = (path: string, seconds: number) => utimes(join(root, path), seconds, seconds);
  await stamp('old.ts', 1_000_000);
  await stamp('mid.ts', 2_000_000);
  await stamp('new.ts', 3_000_000);
  await stamp('src/app.ts', 1_500_000);
  await stamp('src/app.test.ts', 1_600_000);
  await stamp('.hidden/dot.ts', 500_000);
  const many: Record<string, string> = {};
  for (let index = 0; index < 130; index += 1) many[`many/file-${String(index).padStart(3, '0')}.txt`] = 'x';
  await writeFiles(root, many);
});

afterAll(async () => {
  await fixture.close();
  await removeTempRoot(root);
});

describe('glob', () => {
  it('lists matches newest first, skipping .gitignore-d files (root and nested) and .git', async () => {
    const result = await callTool(fixture, 'glob', { pattern: '**/*.ts' }, root);
    expect(result.isError).not.toBe(true);
    expect(textOf(result).split('\n')).toEqual([
      '/new.ts',
      '/mid.ts',
      '/src/app.test.ts',
      '/src/app.ts',
      '/old.ts',
      '/.hidden/dot.ts',
    ]);
  });

  it('honours negated ignore rules', async () => {
    const text = textOf(await callTool(fixture, 'glob', { pattern: '*.log' }, root));
    expect(text).toBe('/keep.log');
  });

  it('matches only the top level without **', async () => {
    const text = textOf(await callTool(fixture, 'glob', { pattern: '*.ts' }, root));
    expect(text.split('\n').sort()).toEqual(['/mid.ts', '/new.ts', '/old.ts']);
  });

  it('searches under path, still applying the .gitignore files above it', async () => {
    const text = textOf(await callTool(fixture, 'glob', { pattern: '**/*', path: 'src' }, root));
    expect(text.split('\n').sort()).toEqual(['/src/.gitignore', '/src/app.test.ts', '/src/app.ts', '/src/readme.md']);
    const nested = textOf(await callTool(fixture, 'glob', { pattern: 'src/**/*.md' }, root));
    expect(nested).toBe('/src/readme.md');
  });

  it('caps results at 100 with a note', async () => {
    const result = await callTool(fixture, 'glob', { pattern: 'many/*.txt' }, root);
    const lines = textOf(result).split('\n');
    expect(lines.filter((line) => line.startsWith('/many/'))).toHaveLength(100);
    expect(textOf(result)).toContain('Results truncated: 130 files matched');
    expect(result.metadata).toMatchObject({ matches: 130, truncated: true });
  });

  it('says when nothing matches, and refuses a path that is not a folder', async () => {
    const none = await callTool(fixture, 'glob', { pattern: '**/*.rs' }, root);
    expect(none.isError).not.toBe(true);
    expect(textOf(none)).toContain('No files found matching "**/*.rs"');
    const file = await callTool(fixture, 'glob', { pattern: '*', path: 'old.ts' }, root);
    expect(file.isError).toBe(true);
    expect(textOf(file)).toContain('not a directory');
  });
});
