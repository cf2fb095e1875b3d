import { describe, expect, it } from 'vitest';
import { hookMatches } from './hook-matcher.js';

describe('hookMatches', () => {
  it('matches every tool without a matcher', () => {
    expect(hookMatches(undefined, 'bash')).toBe(true);
    expect(hookMatches('*', 'mcp__github__create_issue')).toBe(true);
  });

  it('matches globs case-insensitively and rejects other names', () => {
    expect(hookMatches('mcp__github__*', 'mcp__github__create_issue')).toBe(true);
    expect(hookMatches('mcp__github__*', 'mcp__gitlab__create_issue')).toBe(false);
    expect(hookMatches('Bash', 'bash')).toBe(true);
    expect(hookMatches('{read,write}', 'write')).toBe(true);
    expect(hookMatches('{read,write}', 'edit')).toBe(false);
    expect(hookMatches('!bash', 'bash')).toBe(false);
    expect(hookMatches('!bash', 'read')).toBe(true);
  });
});
