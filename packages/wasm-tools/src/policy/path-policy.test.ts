import { link, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkPath,
  checkPathSync,
  createPathPolicy,
  DEFAULT_PROTECTED_PATHS,
  type PathPolicy,
  toGuestPath,
} from './path-policy.js';
import { isPathPolicyError, PathPolicyError } from './path-policy-error.js';
import type { PathAccess, PathCheck } from './types.js';

let base: string;
let root: string;
let outside: string;
let policy: PathPolicy;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'path-policy-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(join(root, '.git', 'hooks'), { recursive: true });
  await mkdir(join(root, '.boxagnts'), { recursive: true });
  await mkdir(join(outside, 'dir'), { recursive: true });
  await writeFile(join(root, 'src', 'a.ts'), 'export {};');
  await writeFile(join(root, '.git', 'config'), '[core]');
  await writeFile(join(root, '.boxagnts', 'config.json'), '{}');
  await writeFile(join(root, '.boxagnts', 'store.db'), '');
  await writeFile(join(outside, 'secret.txt'), 'secret');
  await writeFile(join(outside, 'dir', 'inner.txt'), 'inner');
  const links: Array<[string, string]> = [
    ['out-file-abs', join(outside, 'secret.txt')],
    ['out-file-rel', '../outside/secret.txt'],
    ['out-dir', join(outside, 'dir')],
    ['out-dir-rel', '../outside/dir'],
    ['out-root', '/'],
    ['in-file', 'src/a.ts'],
    ['in-abs', join(root, 'src', 'a.ts')],
    ['in-dir', 'src'],
    ['self', '.'],
    ['c1', 'c2'],
    ['c2', 'c3'],
    ['c3', 'src/a.ts'],
    ['d1', 'd2'],
    ['d2', '../outside/secret.txt'],
    ['loop-a', 'loop-b'],
    ['loop-b', 'loop-a'],
    ['loop-self', 'loop-self'],
    ['dangling-out', '../outside/new.txt'],
    ['dangling-out-abs', join(outside, 'dir', 'new.txt')],
    ['dangling-in', 'src/new.ts'],
    ['dangling-git', '.git/new-hook'],
    ['to-git', '.git'],
  ];
  for (const [name, target] of links) await symlink(target, join(root, name));
  await symlink('../.git', join(root, 'src', 'up'));
  await link(join(outside, 'secret.txt'), join(root, 'hard-out'));
  await writeFile(join(root, 'src', 'twin.txt'), 'twin');
  await link(join(root, 'src', 'twin.txt'), join(root, 'src', 'twin-2.txt'));
  policy = createPathPolicy({ root });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const variants: Array<[string, (p: PathPolicy, input: string, access: PathAccess) => Promise<PathCheck>]> = [
  ['checkPath', checkPath],
  ['checkPathSync', async (p, input, access) => checkPathSync(p, input, access)],
];

describe.each(variants)('%s', (_name, check) => {
  async function accepted(input: string, access: PathAccess = 'read') {
    const result = await check(policy, input, access);
    if (!result.ok) throw new Error(`expected "${input}" to be accepted, got ${result.code}: ${result.error}`);
    return result.path;
  }
  async function refused(input: string, access: PathAccess = 'read') {
    const result = await check(policy, input, access);
    if (result.ok) throw new Error(`expected "${input}" to be refused, got ${result.path.absolute}`);
    expect(result.error.length).toBeGreaterThan(10);
    return result.code;
  }

  it('accepts relative paths and reports existence', async () => {
    expect(await accepted('src/a.ts')).toEqual({
      absolute: join(root, 'src', 'a.ts'),
      relative: 'src/a.ts',
      exists: true,
    });
    expect(await accepted('./src//b.ts', 'write')).toEqual({
      absolute: join(root, 'src', 'b.ts'),
      relative: 'src/b.ts',
      exists: false,
    });
    expect(await accepted('.')).toEqual({ absolute: root, relative: '.', exists: true });
    expect(await accepted('src/x/../a.ts')).toMatchObject({ relative: 'src/a.ts', exists: true });
  });

  it('treats absolute paths as host paths inside the root, else as guest paths under it', async () => {
    expect((await accepted(join(root, 'src', 'a.ts'))).relative).toBe('src/a.ts');
    expect(await accepted('/src/a.ts')).toMatchObject({ absolute: join(root, 'src', 'a.ts'), exists: true });
    expect(await accepted('/')).toMatchObject({ relative: '.', absolute: root });
    expect(await accepted('/etc/passwd')).toEqual({
      absolute: join(root, 'etc', 'passwd'),
      relative: 'etc/passwd',
      exists: false,
    });
    const reRooted = await accepted(join(outside, 'secret.txt'));
    expect(reRooted.absolute.startsWith(`${root}/`)).toBe(true);
    expect(reRooted.exists).toBe(false);
  });

  it('refuses NUL bytes, empty and over-long paths as invalid', async () => {
    expect(await refused('src/a.ts\0.png')).toBe('invalid');
    expect(await refused('')).toBe('invalid');
    expect(await refused('a/'.repeat(3000))).toBe('invalid');
    expect(await refused(`${'n'.repeat(300)}/x`, 'write')).toBe('invalid');
  });

  it('refuses .. that leaves the root', async () => {
    expect(await refused('..')).toBe('outside-root');
    expect(await refused('../outside/secret.txt')).toBe('outside-root');
    expect(await refused('sub/../../x')).toBe('outside-root');
    expect(await refused('/../etc/passwd')).toBe('outside-root');
    expect(await refused(`${root}/../outside/secret.txt`)).toBe('outside-root');
    expect(await refused(`${root}/src/../../outside`)).toBe('outside-root');
  });

  it('never decodes percent-encoding into traversal', async () => {
    const encoded = await accepted('%2e%2e/%2e%2e/outside/secret.txt', 'write');
    expect(encoded).toEqual({
      absolute: join(root, '%2e%2e', '%2e%2e', 'outside', 'secret.txt'),
      relative: '%2e%2e/%2e%2e/outside/secret.txt',
      exists: false,
    });
    expect((await accepted('..%2f..%2foutside%2fsecret.txt')).absolute).toBe(
      join(root, '..%2f..%2foutside%2fsecret.txt'),
    );
    expect((await accepted('%252e%252e/x')).relative).toBe('%252e%252e/x');
  });

  it('refuses outward symlinks to files and folders, relative and absolute', async () => {
    for (const name of ['out-file-abs', 'out-file-rel', 'out-dir', 'out-dir-rel', 'out-root']) {
      expect(await refused(name)).toBe('outside-root');
      expect(await refused(name, 'write')).toBe('outside-root');
    }
    expect(await refused('out-dir/inner.txt')).toBe('outside-root');
    expect(await refused('out-dir-rel/new.txt', 'write')).toBe('outside-root');
    expect(await refused('out-root/etc/passwd')).toBe('outside-root');
    expect(await refused('self/self/out-dir/inner.txt')).toBe('outside-root');
  });

  it('follows symlinks that stay inside', async () => {
    expect(await accepted('in-file')).toMatchObject({ absolute: join(root, 'src', 'a.ts'), relative: 'src/a.ts' });
    expect((await accepted('in-abs')).relative).toBe('src/a.ts');
    expect((await accepted('in-dir/a.ts', 'write')).relative).toBe('src/a.ts');
    expect((await accepted('self/self/self/src/a.ts')).relative).toBe('src/a.ts');
    expect((await accepted('c1', 'write')).relative).toBe('src/a.ts');
  });

  it('refuses symlink chains that end outside and loops', async () => {
    expect(await refused('d1')).toBe('outside-root');
    expect(await refused('loop-a')).toBe('invalid');
    expect(await refused('loop-self/x', 'write')).toBe('invalid');
  });

  it('refuses dangling symlinks whose target is outside, and resolves inside ones to the target', async () => {
    expect(await refused('dangling-out', 'write')).toBe('outside-root');
    expect(await refused('dangling-out-abs', 'write')).toBe('outside-root');
    expect(await accepted('dangling-in', 'write')).toEqual({
      absolute: join(root, 'src', 'new.ts'),
      relative: 'src/new.ts',
      exists: false,
    });
    expect(await refused('dangling-git', 'write')).toBe('protected');
  });

  it('takes .. physically after a symlinked folder', async () => {
    // out-dir/.. is the outside folder, not the root: lexically this would be "secret.txt".
    expect(await refused('out-dir/../secret.txt')).toBe('outside-root');
    // in-dir/.. is the root again.
    expect((await accepted('in-dir/../src/a.ts')).relative).toBe('src/a.ts');
    // A missing folder climbed back out of is resolved again, symlinks included.
    expect(await refused('missing/../out-dir/inner.txt')).toBe('outside-root');
    expect(await refused('missing/deeper/../../out-dir/x', 'write')).toBe('outside-root');
    expect(await refused('in-dir/up/config', 'write')).toBe('protected');
    // src/up is .git, so src/up/.. is the root: lexically this would be src/src/a.ts.
    expect(await accepted('src/up/../src/a.ts')).toMatchObject({ relative: 'src/a.ts', exists: true });
    expect(await refused('src/up/../.git/config', 'write')).toBe('protected');
  });

  it('protects the default paths from writes, present or absent, but allows reads', async () => {
    for (const input of [
      '.git',
      '.git/config',
      '.git/hooks/pre-commit',
      '.GIT/config',
      '.Git/HOOKS/post-checkout',
      '/.git/config',
      '.boxagnts/config.json',
      '.boxagnts/secrets.json',
      '.boxagnts/store.db',
      '.boxagnts/other.db-wal',
      '.boxagnts/other.db-shm',
      '.boxagnts/other.db-journal',
      'src/../.git/config',
      'to-git/config',
      'in-dir/up/hooks/x',
    ]) {
      expect(await refused(input, 'write'), input).toBe('protected');
    }
    expect((await accepted('.git/config')).exists).toBe(true);
    expect((await accepted('.boxagnts/notes.md', 'write')).relative).toBe('.boxagnts/notes.md');
    expect((await accepted('.gitignore', 'write')).relative).toBe('.gitignore');
    expect((await accepted('src/.git-like', 'write')).relative).toBe('src/.git-like');
  });

  it('refuses writes to files with several hard links, reads are fine', async () => {
    expect(await refused('hard-out', 'write')).toBe('hard-link');
    expect(await refused('src/twin.txt', 'write')).toBe('hard-link');
    expect(await refused('/src/twin-2.txt', 'write')).toBe('hard-link');
    expect((await accepted('hard-out')).exists).toBe(true);
  });

  it('handles unicode and odd names literally', async () => {
    for (const name of ['ünïcödé/文件.txt', 'emoji-🦀.md', ' spaced name ', '-rf', '~/x', 'a\\b', 'new\nline']) {
      const path = await accepted(name, 'write');
      expect(path.absolute.startsWith(`${root}/`)).toBe(true);
      expect(path.exists).toBe(false);
    }
  });

  it('accepts long paths that stay under the limits', async () => {
    const deep = `${'segment/'.repeat(400)}file.txt`;
    expect((await accepted(deep, 'write')).relative).toBe(deep);
  });

  it('treats a path through a file as missing', async () => {
    expect(await accepted('src/a.ts/x', 'write')).toMatchObject({ relative: 'src/a.ts/x', exists: false });
  });
});

describe('createPathPolicy', () => {
  it('real-paths the root and accepts host paths through the given name', async () => {
    const alias = join(base, 'alias');
    await symlink(root, alias);
    const aliased = createPathPolicy({ root: alias });
    expect(aliased.root).toBe(root);
    expect(aliased.requestedRoot).toBe(alias);
    const result = await checkPath(aliased, join(alias, 'src', 'a.ts'), 'read');
    expect(result).toEqual({
      ok: true,
      path: { absolute: join(root, 'src', 'a.ts'), relative: 'src/a.ts', exists: true },
    });
  });

  it('refuses a missing root or a file with a typed error', () => {
    expect(() => createPathPolicy({ root: join(base, 'nope') })).toThrow(/does not exist/);
    try {
      createPathPolicy({ root: join(root, 'src', 'a.ts') });
      expect.unreachable();
    } catch (error) {
      expect(isPathPolicyError(error)).toBe(true);
      expect(error).toBeInstanceOf(PathPolicyError);
      expect((error as PathPolicyError).reason).toBe('root-not-directory');
    }
    expect(() => createPathPolicy({ root: '' })).toThrow(PathPolicyError);
    expect(() => createPathPolicy({ root, protectedPaths: [' '] })).toThrow(/pattern/);
    expect(isPathPolicyError(new Error('x'))).toBe(false);
  });

  it('uses the default protected paths unless told otherwise', async () => {
    expect(policy.protectedPaths).toEqual(DEFAULT_PROTECTED_PATHS);
    const open = createPathPolicy({ root, protectedPaths: [] });
    expect((await checkPath(open, '.git/config', 'write')).ok).toBe(true);
    const custom = createPathPolicy({ root, protectedPaths: ['/secrets/**', 'build/'] });
    expect(await checkPath(custom, 'secrets/a/b.txt', 'write')).toMatchObject({ ok: false, code: 'protected' });
    expect(await checkPath(custom, 'build/out.js', 'write')).toMatchObject({ ok: false, code: 'protected' });
    expect((await checkPath(custom, '.git/config', 'write')).ok).toBe(true);
  });

  it('knows which folders hold protected paths', () => {
    expect(policy.containsProtected('.')).toBe(true);
    expect(policy.containsProtected('.boxagnts')).toBe(true);
    expect(policy.containsProtected('.git/hooks')).toBe(true);
    expect(policy.containsProtected('.GIT')).toBe(true);
    expect(policy.containsProtected('src')).toBe(false);
    expect(policy.containsProtected('.boxagnts/notes')).toBe(false);
    expect(policy.isProtected('.boxagnts/x.db')).toBe(true);
    expect(policy.isProtected('.boxagnts/x.dbx')).toBe(false);
  });
});

describe('toGuestPath', () => {
  it('shows the root as /', () => {
    expect(toGuestPath({ absolute: root, relative: '.', exists: true })).toBe('/');
    expect(toGuestPath({ absolute: join(root, 'src', 'a.ts'), relative: 'src/a.ts', exists: true })).toBe('/src/a.ts');
  });
});
