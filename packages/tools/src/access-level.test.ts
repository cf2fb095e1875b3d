import { describe, expect, it } from 'vitest';
import { ACCESS_LEVELS, accessAllows } from './access-level.js';
import type { ToolPermission } from './tool.js';

const permissions: ToolPermission[] = ['read-only', 'write', 'execute', 'network'];

describe('accessAllows', () => {
  it('admits permission levels by access level', () => {
    const table = Object.fromEntries(
      ACCESS_LEVELS.map((level) => [level, permissions.filter((permission) => accessAllows(level, permission))]),
    );
    expect(table).toEqual({
      full: ['read-only', 'write', 'execute', 'network'],
      'read-only': ['read-only', 'network'],
      'search-only': ['read-only'],
    });
    for (const level of ACCESS_LEVELS) expect(accessAllows(level, 'admin' as ToolPermission)).toBe(false);
  });
});
