import { describe, expect, it } from 'vitest';
import { toolOrigin } from './tool-origin.js';

describe('toolOrigin', () => {
  it('names the origin of each kind of tool source', () => {
    expect(toolOrigin({ name: 'native', kind: 'native' })).toBe('built-in');
    expect(toolOrigin({ name: 'tool-set', kind: 'tool-set' })).toBe('built-in');
    expect(toolOrigin({ name: 'sandbox', kind: 'sandbox' })).toBe('component');
    expect(toolOrigin({ name: 'mcp:github', kind: 'mcp' })).toBe('mcp');
    expect(toolOrigin({ name: 'plugin:acme', kind: 'plugin' })).toBe('plugin');
    expect(toolOrigin({ name: 'mine', kind: 'custom' })).toBe('custom');
    expect(toolOrigin(undefined)).toBe('custom');
  });
});
