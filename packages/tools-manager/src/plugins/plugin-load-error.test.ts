import { describe, expect, it } from 'vitest';
import { isPluginLoadError, PluginLoadError } from './plugin-load-error.js';

describe('PluginLoadError', () => {
  it('carries its reason and context and keeps the cause', () => {
    const cause = new Error('inner');
    const error = new PluginLoadError({
      reason: 'duplicate-tool',
      specifier: '@acme/tools',
      pluginName: 'acme',
      toolName: 'echo',
      message: 'two tools named "echo"',
      cause,
    });
    expect(error).toMatchObject({
      name: 'PluginLoadError',
      reason: 'duplicate-tool',
      specifier: '@acme/tools',
      pluginName: 'acme',
      toolName: 'echo',
      path: undefined,
      message: 'two tools named "echo"',
    });
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(Error);
  });

  it('is recognised across package copies by its Symbol.for marker, not by class', () => {
    const fromAnotherCopy = Object.assign(new Error('x'), {
      [Symbol.for('boxagnts.tools-manager.plugin-load-error')]: true,
    });
    expect(isPluginLoadError(fromAnotherCopy)).toBe(true);
    expect(isPluginLoadError(new Error('plain'))).toBe(false);
    expect(isPluginLoadError({ reason: 'not-found' })).toBe(false);
    expect(isPluginLoadError(null)).toBe(false);
    expect(isPluginLoadError(new PluginLoadError({ reason: 'not-found', specifier: 'x', message: 'm' }))).toBe(true);
  });
});
