import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compilePathPattern, placePath } from './path-pattern.js';

const root = path.resolve('/work/repo');

describe('placePath', () => {
  it.each([
    ['src/a.ts', 'src/a.ts'],
    ['./src/a.ts', 'src/a.ts'],
    ['src/./b/../a.ts', 'src/a.ts'],
    [path.join(root, 'src/a.ts'), 'src/a.ts'],
    ['src/../README.md', 'README.md'],
    ['', ''],
    ['.', ''],
    [root, ''],
    ['src//a.ts', 'src/a.ts'],
  ])('%j is inside the root as %j', (subject, relative) => {
    expect(placePath(subject, root)).toEqual({ inside: true, relative });
  });

  it.each([
    '../x',
    'src/../../x',
    '/etc/passwd',
    path.resolve(root, '../repo-other/a.ts'),
    '~/.ssh/id_rsa',
    'src\\..\\..\\x',
    'src/a\0.ts',
    '..',
  ])('%j is outside the root', (subject) => {
    expect(placePath(subject, root).inside).toBe(false);
  });

  it('a missing or odd root puts every path outside', () => {
    expect(placePath('src/a.ts', undefined).inside).toBe(false);
    expect(placePath('src/a.ts', '').inside).toBe(false);
    expect(placePath('src/a.ts', 42).inside).toBe(false);
  });

  it('keeps the trailing segments of outside paths for deny rules', () => {
    const placed = placePath('/home/user/.ssh/id_rsa', root);
    expect(placed).toEqual({
      inside: false,
      tails: ['home/user/.ssh/id_rsa', 'user/.ssh/id_rsa', '.ssh/id_rsa', 'id_rsa'],
    });
  });
});

describe('compilePathPattern', () => {
  const strict = (pattern: string, subject: string): boolean =>
    compilePathPattern(pattern, 'strict')(placePath(subject, root));
  const broad = (pattern: string, subject: string): boolean =>
    compilePathPattern(pattern, 'broad')(placePath(subject, root));

  it('matches globs relative to the root, dotfiles included', () => {
    expect(strict('src/**', 'src/a/b.ts')).toBe(true);
    expect(strict('src/**', 'src')).toBe(true);
    expect(strict('src/**', 'src/.hidden/x')).toBe(true);
    expect(strict('src/**', 'lib/a.ts')).toBe(false);
    expect(strict('*.md', 'README.md')).toBe(true);
    expect(strict('*.md', 'docs/a.md')).toBe(false);
    expect(strict('**/*.test.ts', 'a.test.ts')).toBe(true);
    expect(strict('**/*.test.ts', 'src/deep/a.test.ts')).toBe(true);
    expect(strict('**/*.test.ts', 'src/a.ts')).toBe(false);
    expect(strict('src/{a,b}.ts', 'src/b.ts')).toBe(true);
  });

  it('reads absolute subjects inside the root relatively', () => {
    expect(strict('src/**', path.join(root, 'src/a.ts'))).toBe(true);
  });

  it('treats a leading `/` or `./` as the root and a trailing `/` as everything below', () => {
    expect(strict('/src/**', 'src/a.ts')).toBe(true);
    expect(strict('./src/**', 'src/a.ts')).toBe(true);
    expect(strict('/src/**', '/src/a.ts')).toBe(false);
    expect(strict('src/', 'src/a/b.ts')).toBe(true);
  });

  it('the root itself matches only `**`', () => {
    expect(strict('**', '.')).toBe(true);
    expect(strict('/', '')).toBe(true);
    expect(strict('*', '.')).toBe(false);
    expect(strict('src/**', '.')).toBe(false);
  });

  it('strict matchers never match a path outside the root', () => {
    expect(strict('**', '../x')).toBe(false);
    expect(strict('src/**', 'src/../../x')).toBe(false);
    expect(strict('src/**', 'src/../secrets')).toBe(false);
    expect(strict('**', '/etc/passwd')).toBe(false);
    expect(strict('**', '~/x')).toBe(false);
    expect(strict('src/**', 'src\\..\\..\\x')).toBe(false);
    expect(strict('../**', '../x')).toBe(false);
  });

  it('strict matchers are case-sensitive, broad ones are not', () => {
    expect(strict('src/**', 'SRC/a.ts')).toBe(false);
    expect(broad('secrets/**', 'Secrets/key')).toBe(true);
  });

  it('broad matchers recognise outside paths by their trailing segments', () => {
    expect(broad('**/.ssh/**', '../../home/user/.ssh/id_rsa')).toBe(true);
    expect(broad('**/.env', '/elsewhere/.env')).toBe(true);
    expect(broad('.env', '~/.env')).toBe(true);
    expect(broad('**', '/etc/passwd')).toBe(true);
    expect(broad('secrets/**', 'src/../secrets/key')).toBe(true);
    expect(broad('secrets/**', 'lib/key')).toBe(false);
  });

  it('`!` is a literal character, not a negation', () => {
    expect(strict('!secrets/**', 'src/a.ts')).toBe(false);
    expect(strict('!x', '!x')).toBe(true);
  });
});
