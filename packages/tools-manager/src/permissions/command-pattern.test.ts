import { describe, expect, it } from 'vitest';
import { compileCommandPattern } from './command-pattern.js';

describe('compileCommandPattern', () => {
  it('`prefix:*` matches the prefix alone or followed by a space', () => {
    const matches = compileCommandPattern('npm test:*');
    expect(matches('npm test')).toBe(true);
    expect(matches('npm test -- --watch')).toBe(true);
    expect(matches('npm testx')).toBe(false);
    expect(matches('npm tes')).toBe(false);
    expect(matches('xnpm test')).toBe(false);
    expect(matches(' npm test')).toBe(false);
  });

  it('`prefix:*` may itself hold wildcards', () => {
    const matches = compileCommandPattern('git * --force:*');
    expect(matches('git push --force')).toBe(true);
    expect(matches('git push --force origin main')).toBe(true);
    expect(matches('git push --forceful')).toBe(false);
  });

  it('a pattern with `*` is a wildcard over the whole command', () => {
    const matches = compileCommandPattern('git * main');
    expect(matches('git push origin main')).toBe(true);
    expect(matches('git push origin main2')).toBe(false);
    expect(compileCommandPattern('*')('anything at all')).toBe(true);
  });

  it('anything else must equal the command, blanks collapsed in the pattern', () => {
    const matches = compileCommandPattern('  git   status ');
    expect(matches('git status')).toBe(true);
    expect(matches('git status --short')).toBe(false);
    expect(matches('Git status')).toBe(false);
  });

  it('compares case-insensitively when asked (deny and ask rules)', () => {
    expect(compileCommandPattern('rm:*', { ignoreCase: true })('RM -rf /')).toBe(true);
    expect(compileCommandPattern('rm -rf /', { ignoreCase: true })('RM -RF /')).toBe(true);
    expect(compileCommandPattern('rm *', { ignoreCase: true })('Rm x')).toBe(true);
  });

  it('regular-expression characters in the pattern are literal', () => {
    expect(compileCommandPattern('echo a.b:*')('echo axb')).toBe(false);
    expect(compileCommandPattern('echo (x)+')('echo (x)+')).toBe(true);
  });
});
