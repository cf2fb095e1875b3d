import { describe, expect, it } from 'vitest';
import { createToolNameFilter } from './name-patterns.js';

describe('createToolNameFilter', () => {
  it('offers everything without lists', () => {
    expect(createToolNameFilter({})('anything')).toBe(true);
  });

  it('offers only allowed names, with * globs', () => {
    const offered = createToolNameFilter({ allow: ['get-*', 'echo'] });
    expect(offered('get-sum')).toBe(true);
    expect(offered('echo')).toBe(true);
    expect(offered('echo2')).toBe(false);
    expect(offered('forget-sum')).toBe(false);
  });

  it('lets deny win over allow', () => {
    const offered = createToolNameFilter({ allow: ['*'], deny: ['get-env', '*write*'] });
    expect(offered('get-env')).toBe(false);
    expect(offered('overwrite_file')).toBe(false);
    expect(offered('get-sum')).toBe(true);
  });

  it('treats regular-expression characters literally', () => {
    const offered = createToolNameFilter({ allow: ['a.b', 'x+'] });
    expect(offered('a.b')).toBe(true);
    expect(offered('aXb')).toBe(false);
    expect(offered('x+')).toBe(true);
    expect(offered('xx')).toBe(false);
  });

  it('matches names with slashes and dots under *', () => {
    expect(createToolNameFilter({ deny: ['fs/*'] })('fs/read.file')).toBe(false);
  });
});
