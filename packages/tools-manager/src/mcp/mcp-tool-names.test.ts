import { describe, expect, it } from 'vitest';
import { assignMcpToolNames, mcpToolName, sanitizeToolNamePart } from './mcp-tool-names.js';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

describe('sanitizeToolNamePart', () => {
  it('replaces every character outside [a-zA-Z0-9_-] with "_"', () => {
    expect(sanitizeToolNamePart('read.file/v2 (beta)')).toBe('read_file_v2__beta_');
    expect(sanitizeToolNamePart('ünïcode✓')).toBe('_n_code_');
    expect(sanitizeToolNamePart('')).toBe('_');
  });
});

describe('mcpToolName', () => {
  it('joins prefix, server and tool', () => {
    expect(mcpToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
  });

  it('cuts names over 64 characters and appends a stable hash of the full name', () => {
    const long = `fetch_${'a'.repeat(80)}`;
    const name = mcpToolName('web', long);
    expect(name).toMatch(VALID);
    expect(name).toHaveLength(64);
    expect(name.startsWith('mcp__web__fetch_aaaa')).toBe(true);
    expect(mcpToolName('web', long)).toBe(name);
    expect(mcpToolName('web', `${long}b`)).not.toBe(name);
  });
});

describe('assignMcpToolNames', () => {
  it('lets the name that needed no change keep it and hashes the others, whatever the order', () => {
    const forward = assignMcpToolNames('s', ['a.b', 'a_b', 'a b']);
    const backward = assignMcpToolNames('s', ['a b', 'a_b', 'a.b']);
    expect(forward.get('a_b')).toBe('mcp__s__a_b');
    expect(forward.get('a.b')).toMatch(/^mcp__s__a_b_[0-9a-f]{8}$/);
    expect(forward.get('a b')).toMatch(/^mcp__s__a_b_[0-9a-f]{8}$/);
    expect(new Set(forward.values()).size).toBe(3);
    expect([...backward.entries()].sort()).toEqual([...forward.entries()].sort());
  });

  it('gives the first in code-unit order the plain name when none is exact', () => {
    const names = assignMcpToolNames('s', ['x/y', 'x.y']);
    expect(names.get('x.y')).toBe('mcp__s__x_y');
    expect(names.get('x/y')).toMatch(/^mcp__s__x_y_[0-9a-f]{8}$/);
  });

  it('never hands out a reserved name', () => {
    const names = assignMcpToolNames('s', ['list_resources', 'other'], ['mcp__s__list_resources']);
    expect(names.get('list_resources')).toMatch(/^mcp__s__list_resources_[0-9a-f]{8}$/);
    expect(names.get('other')).toBe('mcp__s__other');
  });

  it('keeps long names that share a 64-character prefix apart', () => {
    const first = `${'p'.repeat(70)}_one`;
    const second = `${'p'.repeat(70)}_two`;
    const names = assignMcpToolNames('srv', [first, second]);
    expect(names.get(first)).toMatch(VALID);
    expect(names.get(second)).toMatch(VALID);
    expect(names.get(first)).not.toBe(names.get(second));
  });

  it('yields only valid, unique names for adversarial input', () => {
    const raw = ['', ' ', '../../etc/passwd', 'a'.repeat(200), '名前', '-', '_', 'a-b', 'a_b', 'a.b', 'a b'];
    const names = assignMcpToolNames('srv', raw);
    expect(names.size).toBe(raw.length);
    for (const name of names.values()) expect(name).toMatch(VALID);
    expect(new Set(names.values()).size).toBe(raw.length);
  });
});
