import type { ToolPermission } from '@boxagnts/tools';
import { describe, expect, it } from 'vitest';
import type { AccessLevel } from '../types.js';
import {
  AccessLevelError,
  accessFilter,
  filterToolsByAccess,
  isAccessLevel,
  isAccessLevelError,
} from './access-level.js';

const PERMISSIONS: ToolPermission[] = ['read-only', 'write', 'execute', 'network'];

describe('accessFilter', () => {
  it.each([
    ['full', ['read-only', 'write', 'execute', 'network']],
    ['read-only', ['read-only', 'network']],
    ['search-only', ['read-only']],
  ] as const)('%s admits %j', (level, admitted) => {
    const admits = accessFilter(level);
    expect(PERMISSIONS.filter((permission) => admits(permission))).toEqual(admitted);
  });

  it('admits no permission it does not know', () => {
    expect(accessFilter('full')('root' as ToolPermission)).toBe(false);
  });

  it('rejects an unknown level with the list of levels', () => {
    let caught: unknown;
    try {
      accessFilter('admin' as AccessLevel);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AccessLevelError);
    expect(isAccessLevelError(caught)).toBe(true);
    expect((caught as Error).message).toBe('Unknown access level "admin": use one of full, read-only, search-only.');
    expect(() => accessFilter('toString' as AccessLevel)).toThrow(AccessLevelError);
  });
});

describe('filterToolsByAccess', () => {
  const tools = [
    { name: 'read', permission: 'read-only' as const },
    { name: 'write', permission: 'write' as const },
    { name: 'bash', permission: 'execute' as const },
    { name: 'web_fetch', permission: 'network' as const },
    { name: 'glob', permission: 'read-only' as const },
  ];

  it('filters by permission, keeping order and the tools themselves', () => {
    expect(filterToolsByAccess(tools, 'full')).toEqual(tools);
    expect(filterToolsByAccess(tools, 'read-only').map((tool) => tool.name)).toEqual(['read', 'web_fetch', 'glob']);
    expect(filterToolsByAccess(tools, 'search-only').map((tool) => tool.name)).toEqual(['read', 'glob']);
    expect(filterToolsByAccess(tools, 'search-only')[0]).toBe(tools[0]);
  });

  it('never filters by name: a "read" tool that writes is dropped', () => {
    expect(filterToolsByAccess([{ name: 'read', permission: 'write' as const }], 'read-only')).toEqual([]);
  });

  it('returns a new array', () => {
    const filtered = filterToolsByAccess(tools, 'full');
    expect(filtered).not.toBe(tools);
  });
});

describe('isAccessLevel', () => {
  it('accepts exactly the three levels', () => {
    expect(['full', 'read-only', 'search-only'].every(isAccessLevel)).toBe(true);
    for (const value of ['Full', 'readonly', '', 'toString', '__proto__', undefined, null, 1, {}]) {
      expect(isAccessLevel(value), String(value)).toBe(false);
    }
  });
});
