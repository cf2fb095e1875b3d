import { existsSync } from 'node:fs';
import { link, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callTool,
  contextFor,
  type FsToolsFixture,
  makeTempRoot,
  removeTempRoot,
  startFsTools,
  textOf,
} from './test-support.js';

const SECRET = 'TOP-SECRET-OUTSIDE';

let fixture: FsToolsFixture;
let root: string;
let outside: string;

beforeAll(async () => {
  fixture = await startFsTools();
  outside = await makeTempRoot(
    { 'secret.txt': `${SECRET}\n`, 'dir/inner.txt': `${SECRET} inner\n` },
    'boxagnts-outside-',
  );
  root = await makeTempRoot({ 'inside.txt': 'inside\n', 'sub/file.txt': 'sub\n', '.git/config': '[core]\n' });
  await symlink(join(relative(root, outside), 'secret.txt'), join(root, 'link-relative'));
  await symlink(join(outside, 'secret.txt'), join(root, 'link-absolute'));
  await symlink(join(outside, 'dir'), join(root, 'link-dir'));
  await symlink(relative(root, join(outside, 'dir')), join(root, 'link-dir-relative'));
  await symlink(join(outside, 'future.txt'), join(root, 'link-future'));
  await link(join(outside, 'secret.txt'), join(root, 'hard.txt'));
});

afterAll(async () => {
  await fixture.close();
  await removeTempRoot(root);
  await removeTempRoot(outside);
});

const secretUnchanged = async () => expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);

describe('paths that leave the working folder', () => {
  it.each(['../secret.txt', 'sub/../../secret.txt', '../../../../../../etc/passwd'])(
    'refuses %s for read and write',
    async (path) => {
      const read = await callTool(fixture, 'read', { file_path: path }, root);
      expect(read.isError).toBe(true);
      expect(textOf(read)).toContain('outside the working folder');
      const write = await callTool(fixture, 'write', { file_path: path, content: 'x' }, root);
      expect(write.isError).toBe(true);
      expect(textOf(write)).toContain('outside the working folder');
    },
  );

  it('treats an absolute host path outside the root as a path inside it', async () => {
    const path = join(outside, 'secret.txt');
    const read = await callTool(fixture, 'read', { file_path: path }, root);
    expect(read.isError).toBe(true);
    expect(textOf(read)).not.toContain(SECRET);
    const write = await callTool(fixture, 'write', { file_path: path, content: 'planted' }, root);
    expect(write.isError).not.toBe(true);
    await secretUnchanged();
    expect(await readFile(join(root, path), 'utf8')).toBe('planted');
  });

  it('does not decode percent-encoding: %2e%2e is a name', async () => {
    const read = await callTool(fixture, 'read', { file_path: '%2e%2e/secret.txt' }, root);
    expect(read.isError).toBe(true);
    expect(textOf(read)).toContain('does not exist');
    expect(textOf(read)).not.toContain(SECRET);
  });

  it.each(['link-relative', 'link-absolute'])('refuses the outward file symlink %s for every tool', async (path) => {
    for (const [tool, input] of [
      ['read', { file_path: path }],
      ['write', { file_path: path, content: 'x' }],
      ['edit', { file_path: path, old_string: SECRET, new_string: 'x' }],
      ['grep', { pattern: 'SECRET', path }],
    ] as const) {
      const result = await callTool(fixture, tool, input, root);
      expect(result.isError, tool).toBe(true);
      expect(textOf(result)).toContain('outside the working folder');
    }
    await secretUnchanged();
  });

  it.each(['link-dir', 'link-dir-relative'])('refuses files through the outward folder symlink %s', async (folder) => {
    const read = await callTool(fixture, 'read', { file_path: `${folder}/inner.txt` }, root);
    expect(read.isError).toBe(true);
    const write = await callTool(fixture, 'write', { file_path: `${folder}/planted.txt`, content: 'x' }, root);
    expect(write.isError).toBe(true);
    expect(existsSync(join(outside, 'dir', 'planted.txt'))).toBe(false);
    const glob = await callTool(fixture, 'glob', { pattern: '**/*', path: folder }, root);
    expect(glob.isError).toBe(true);
  });

  it('never walks into symlinks when globbing or grepping the root', async () => {
    // Symlinks are never walked, and a walk never reads a file with several hard links (it may be
    // another name of a file the host keeps from tools); such a file is read by name, through the
    // host's path check.
    const grep = await callTool(fixture, 'grep', { pattern: SECRET, output_mode: 'content' }, root);
    expect(textOf(grep)).not.toContain(`hard.txt:1:`);
    expect(textOf(grep)).toContain('several hard links were not searched');
    const read = await callTool(fixture, 'read', { file_path: 'hard.txt' }, root);
    expect(textOf(read)).toContain(SECRET);
    const glob = await callTool(fixture, 'glob', { pattern: '**/*' }, root);
    expect(textOf(glob)).not.toContain('inner.txt');
    expect(textOf(glob)).not.toContain('link-');
  });

  it('refuses a dangling symlink to a file that does not exist yet, creating nothing outside', async () => {
    const write = await callTool(fixture, 'write', { file_path: 'link-future', content: 'x' }, root);
    expect(write.isError).toBe(true);
    const edit = await callTool(fixture, 'edit', { file_path: 'link-future', old_string: '', new_string: 'x' }, root);
    expect(edit.isError).toBe(true);
    expect(existsSync(join(outside, 'future.txt'))).toBe(false);
  });

  it('refuses to write or edit a hard link to an outside file, and never truncates it', async () => {
    const write = await callTool(fixture, 'write', { file_path: 'hard.txt', content: '' }, root);
    expect(write.isError).toBe(true);
    expect(textOf(write)).toContain('hard links');
    const edit = await callTool(fixture, 'edit', { file_path: 'hard.txt', old_string: SECRET, new_string: 'x' }, root);
    expect(edit.isError).toBe(true);
    await secretUnchanged();
  });
});

describe('protected paths', () => {
  it('refuses writing .git/config, existing or not, in any case', async () => {
    const existing = await callTool(fixture, 'write', { file_path: '.git/config', content: 'evil' }, root);
    expect(existing.isError).toBe(true);
    expect(textOf(existing)).toContain('protected');
    expect(await readFile(join(root, '.git/config'), 'utf8')).toBe('[core]\n');
    const edit = await callTool(
      fixture,
      'edit',
      { file_path: '.GIT/config', old_string: '[core]', new_string: 'x' },
      root,
    );
    expect(edit.isError).toBe(true);
    const absentRoot = await makeTempRoot({ 'a.txt': 'a' });
    try {
      const absent = await callTool(fixture, 'write', { file_path: '.git/config', content: 'evil' }, absentRoot);
      expect(absent.isError).toBe(true);
      expect(existsSync(join(absentRoot, '.git'))).toBe(false);
      const hooks = await callTool(
        fixture,
        'edit',
        { file_path: '.git/hooks/pre-commit', old_string: '', new_string: 'x' },
        absentRoot,
      );
      expect(hooks.isError).toBe(true);
      expect(existsSync(join(absentRoot, '.git'))).toBe(false);
    } finally {
      await removeTempRoot(absentRoot);
    }
  });

  it('still lets read see protected files', async () => {
    expect(textOf(await callTool(fixture, 'read', { file_path: '.git/config' }, root))).toBe('     1\t[core]');
  });
});

describe('concurrent calls', () => {
  it('keep each call in its own root', async () => {
    const first = await makeTempRoot({ 'same.txt': 'first root\n' });
    const second = await makeTempRoot({ 'same.txt': 'second root\n' });
    try {
      const [readFirst, readSecond, writeFirst, writeSecond] = await Promise.all([
        callTool(fixture, 'read', { file_path: 'same.txt' }, first),
        callTool(fixture, 'read', { file_path: 'same.txt' }, second),
        callTool(fixture, 'write', { file_path: 'out/new.txt', content: 'one' }, first),
        callTool(fixture, 'write', { file_path: 'out/new.txt', content: 'two' }, second),
      ]);
      expect(textOf(readFirst)).toBe('     1\tfirst root');
      expect(textOf(readSecond)).toBe('     1\tsecond root');
      expect(writeFirst.isError).not.toBe(true);
      expect(writeSecond.isError).not.toBe(true);
      expect(await readFile(join(first, 'out/new.txt'), 'utf8')).toBe('one');
      expect(await readFile(join(second, 'out/new.txt'), 'utf8')).toBe('two');
    } finally {
      await removeTempRoot(first);
      await removeTempRoot(second);
    }
  });

  it('a fixed policy pins the root whatever the context says', async () => {
    const other = await makeTempRoot();
    await mkdir(join(other, 'x'));
    await writeFile(join(other, 'x', 'here.txt'), 'other\n');
    try {
      const { createPathPolicy } = await import('../policy/path-policy.js');
      const { createFsTools } = await import('./create-fs-tools.js');
      const pinned = await createFsTools({
        runtime: fixture.runtime,
        component: { path: fixture.componentPath },
        policy: createPathPolicy({ root }),
      });
      const read = pinned.find((tool) => tool.name === 'read');
      const result = await read?.execute({ file_path: 'inside.txt' }, contextFor(other));
      expect(result && textOf(result)).toBe('     1\tinside');
    } finally {
      await removeTempRoot(other);
    }
  });
});
