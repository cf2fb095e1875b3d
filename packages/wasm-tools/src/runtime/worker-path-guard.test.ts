// The worker's copy of the path policy must answer exactly as the host's (src/policy), and its
// anchors must refuse a parent folder that is, or passes through, a link out of the root.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileProtectedPaths, DEFAULT_PROTECTED_PATHS, DEFAULT_SECRET_PATHS } from '../policy/protected-paths.js';
import { tempDir } from './test-fixtures.js';

interface Guard {
  rootReal: string;
  isProtected(relative: string): boolean;
  isSecret(relative: string): boolean;
}
interface GuardModule {
  createPathGuard(root: string, policy: { protectedPaths: readonly string[]; secretPaths: readonly string[] }): Guard;
  anchor(guard: Guard, fullPath: string): { path: string; relative: string; real: string; release(): void };
  ANCHORED: boolean;
}

const SAMPLES = [
  '.',
  'AGENTS.md',
  'agents.md',
  'src/AGENTS.md',
  'a/b/c/AGENTS.md',
  'AGENTS.md.bak',
  'src/AGENTS.mdx',
  '.git',
  '.GIT/config',
  '.git/hooks/pre-commit',
  '.gitignore',
  '.boxagnts',
  '.boxagnts/secrets.json',
  '.boxagnts/store.db-wal',
  '.boxagnts/other.txt',
  '.agents',
  '.agents/skills',
  '.agents/skills/review/SKILL.md',
  'skills/x/SKILL.md',
  'src/skills/x.md',
  'boxagnts.json',
  'boxagnts.jsonc',
  'sub/boxagnts.json',
  'output-styles/terse.md',
  'hooks/check-command.sh',
  'src/hooks/useThing.ts',
  'caf\u00e9/AGENTS.md',
  'cafe\u0301/AGENTS.md',
];

describe('worker path guard', () => {
  let guardModule: GuardModule;
  let parent: { path: string; remove: () => Promise<void> };

  beforeAll(async () => {
    guardModule = (await import(new URL('./worker-path-guard.mjs', import.meta.url).href)) as GuardModule;
    parent = await tempDir('path-guard');
    await mkdir(join(parent.path, 'root', 'sub'), { recursive: true });
    await mkdir(join(parent.path, 'outside'));
    await writeFile(join(parent.path, 'outside', 'f.txt'), 'outside');
    await symlink(join(parent.path, 'outside'), join(parent.path, 'root', 'out'));
    await symlink('sub', join(parent.path, 'root', 'inner'));
  });

  afterAll(async () => {
    await parent.remove();
  });

  it.each([
    ['the defaults', DEFAULT_PROTECTED_PATHS, DEFAULT_SECRET_PATHS],
    ['custom patterns', ['./docs/', '**/*.key', 'a/*/c'], ['private/**']],
  ])('answers like the host policy for %s', (_label, protectedPaths, secretPaths) => {
    const guard = guardModule.createPathGuard('/root', { protectedPaths, secretPaths });
    const hostProtected = compileProtectedPaths(protectedPaths);
    const hostSecret = compileProtectedPaths(secretPaths);
    const extra = ['docs', 'docs/a.md', 'x/y.key', 'a/b/c', 'a/b/c/d', 'a/c', 'private/x', 'privately'];
    for (const sample of [...SAMPLES, ...extra]) {
      expect([sample, guard.isProtected(sample)]).toEqual([sample, hostProtected.isProtected(sample)]);
      expect([sample, guard.isSecret(sample)]).toEqual([sample, hostSecret.isProtected(sample)]);
    }
  });

  it.skipIf(process.platform !== 'linux')('anchors on the real parent and refuses one that leads out', () => {
    expect(guardModule.ANCHORED).toBe(true);
    const root = join(parent.path, 'root');
    const guard = guardModule.createPathGuard(root, { protectedPaths: [], secretPaths: [] });
    const inside = guardModule.anchor(guard, join(root, 'sub', 'f.txt'));
    expect(inside.relative).toBe('sub/f.txt');
    expect(inside.path).toMatch(/^\/proc\/self\/fd\/\d+\/f\.txt$/);
    inside.release();
    // The resolver's string says `root/out`, but the kernel says where `out` leads.
    expect(() => guardModule.anchor(guard, join(root, 'out', 'f.txt'))).toThrow('not-permitted');
    expect(() => guardModule.anchor(guard, join(root, 'out', 'deeper', 'f.txt'))).toThrow();
    // The resolver hands over paths with every link resolved: a link found as the parent was swapped in.
    expect(() => guardModule.anchor(guard, join(root, 'inner', 'f.txt'))).toThrow('not-permitted');
    expect(() => guardModule.anchor(guard, join(parent.path, 'outside', 'f.txt'))).toThrow('not-permitted');
  });
});
