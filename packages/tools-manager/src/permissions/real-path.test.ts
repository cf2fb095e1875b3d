import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRealPath } from './real-path.js';

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tm-real-path-')));
  await mkdir(join(base, 'root', 'src'), { recursive: true });
  await mkdir(join(base, 'outside', 'deep'), { recursive: true });
  await symlink(join(base, 'outside'), join(base, 'root', 'src', 'out'));
  await symlink('../../outside/deep', join(base, 'root', 'src', 'relative'));
  await symlink(join(base, 'nowhere', 'file'), join(base, 'root', 'dangling'));
  await symlink(join(base, 'root', 'loop-b'), join(base, 'root', 'loop-a'));
  await symlink(join(base, 'root', 'loop-a'), join(base, 'root', 'loop-b'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('resolveRealPath', () => {
  it('follows absolute and relative links, and keeps a missing tail as written', () => {
    expect(resolveRealPath(join(base, 'root', 'src', 'out', 'new', 'file.txt'))).toBe(
      join(base, 'outside', 'new', 'file.txt'),
    );
    expect(resolveRealPath(join(base, 'root', 'src', 'relative', 'x'))).toBe(join(base, 'outside', 'deep', 'x'));
  });
  it('follows a dangling link to where a write would land', () => {
    expect(resolveRealPath(join(base, 'root', 'dangling'))).toBe(join(base, 'nowhere', 'file'));
  });
  it('reads `..` after a link the way the kernel does', () => {
    // src/relative -> outside/deep, so src/relative/.. is outside, not src.
    expect(resolveRealPath(`${join(base, 'root', 'src', 'relative')}/../x`)).toBe(join(base, 'outside', 'x'));
  });
  it('gives up (undefined) on a link loop and on relative input', () => {
    expect(resolveRealPath(join(base, 'root', 'loop-a', 'x'))).toBeUndefined();
    expect(resolveRealPath('relative/path')).toBeUndefined();
    expect(resolveRealPath('/a\0b')).toBeUndefined();
    // A hostile path of 300,000 `x/..` pairs is refused at once, not walked segment by segment.
    expect(resolveRealPath(join(base, 'root', 'src', 'x/..'.repeat(300_000)))).toBeUndefined();
  });
});
