import { describe, expect, it } from 'vitest';
import { hookEnvironment } from './hook-environment.js';

describe('hookEnvironment', () => {
  it('keeps only PATH, HOME and LANG from the host, and adds the hook env', () => {
    const environment = hookEnvironment(
      { MODE: 'strict', PATH: '/custom/bin' },
      { PATH: '/usr/bin', HOME: '/home/me', LANG: 'C.UTF-8', ANTHROPIC_API_KEY: 'secret', AWS_SECRET: 'x' },
    );
    expect(environment).toEqual({ PATH: '/custom/bin', HOME: '/home/me', LANG: 'C.UTF-8', MODE: 'strict' });
  });

  it('leaves out variables the host does not have', () => {
    expect(hookEnvironment(undefined, { HOME: '/root' })).toEqual({ HOME: '/root' });
  });
});
