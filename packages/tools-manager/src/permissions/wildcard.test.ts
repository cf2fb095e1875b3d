import { describe, expect, it } from 'vitest';
import { compileWildcard } from './wildcard.js';

describe('compileWildcard', () => {
  it('matches any run of characters at each star, anchored at both ends', () => {
    const matches = compileWildcard('mcp__github__*');
    expect(matches('mcp__github__create_issue')).toBe(true);
    expect(matches('mcp__github__')).toBe(true);
    expect(matches('mcp__githubx__y')).toBe(false);
    expect(matches('xmcp__github__y')).toBe(false);
    expect(compileWildcard('a*b*c')('a-\n-b--c')).toBe(true);
    expect(compileWildcard('a*b*c')('a-b-c-d')).toBe(false);
    expect(compileWildcard('*')('')).toBe(true);
    expect(compileWildcard('**')('x')).toBe(true);
    expect(compileWildcard('')('')).toBe(true);
    expect(compileWildcard('')('x')).toBe(false);
    expect(compileWildcard('*ab')('aab')).toBe(true);
    expect(compileWildcard('a*')('')).toBe(false);
  });

  it('treats every other character literally', () => {
    expect(compileWildcard('a.b')('axb')).toBe(false);
    expect(compileWildcard('a.b')('a.b')).toBe(true);
    expect(compileWildcard('(x)+[y]?{z}|^$\\')('(x)+[y]?{z}|^$\\')).toBe(true);
    expect(compileWildcard('a?')('a')).toBe(false);
    expect(compileWildcard('a?')('ab')).toBe(false);
  });

  it('is case-sensitive unless asked otherwise', () => {
    expect(compileWildcard('Read')('read')).toBe(false);
    expect(compileWildcard('Read', { ignoreCase: true })('rEAD')).toBe(true);
  });

  it('answers a hostile subject against a many-star pattern without blowing up', () => {
    const subject = 'a'.repeat(20_000);
    expect(compileWildcard('*a*a*a*a*a*a*a*a*b')(subject)).toBe(false);
    expect(compileWildcard('*a*a*a*a*a*a*a*a*a')(subject)).toBe(true);
  });
});
