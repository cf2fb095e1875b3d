import { describe, expect, it } from 'vitest';
import { grantedEnvironment, grantedNames } from './env-grant.js';

const HOST = { API_KEY: 'secret', STYLE: 'loud', OTHER: 'x' };

describe('environment grants', () => {
  it('gives nothing without a grant, whatever the tool asks for', () => {
    expect(grantedEnvironment(['API_KEY', 'STYLE'], undefined, 'tool', HOST)).toEqual({});
    expect(grantedEnvironment(['API_KEY'], [], 'tool', HOST)).toEqual({});
  });

  it('gives only what was both asked for and granted', () => {
    expect(grantedEnvironment(['API_KEY', 'STYLE'], ['STYLE', 'OTHER'], 'tool', HOST)).toEqual({ STYLE: 'loud' });
  });

  it('grants per tool name with a record, and never through inherited keys', () => {
    const grant = { hello: ['STYLE'] };
    expect(grantedEnvironment(['STYLE'], grant, 'hello', HOST)).toEqual({ STYLE: 'loud' });
    expect(grantedEnvironment(['STYLE'], grant, 'other', HOST)).toEqual({});
    expect(grantedNames(grant, 'constructor')).toEqual([]);
    expect(grantedNames(grant, '__proto__')).toEqual([]);
  });

  it('leaves out granted variables the host does not have', () => {
    expect(grantedEnvironment(['MISSING'], ['MISSING'], 'tool', HOST)).toEqual({});
  });
});
