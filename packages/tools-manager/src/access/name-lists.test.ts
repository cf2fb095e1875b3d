import { describe, expect, it } from 'vitest';
import { applyNameLists } from './name-lists.js';

const tools = [
  'read',
  'write',
  'bash',
  'mcp__github__create_issue',
  'mcp__github__delete_repo',
  'mcp__githubx__y',
  'Read_Notes',
].map((name) => ({ name }));
const names = (result: { tools: { name: string }[] }) => result.tools.map((tool) => tool.name);

describe('applyNameLists', () => {
  it('keeps everything without lists, and with an empty allow list', () => {
    expect(names(applyNameLists(tools, {}))).toEqual(tools.map((tool) => tool.name));
    expect(applyNameLists(tools, { allow: [] })).toEqual({ tools, unmatched: [] });
  });

  it('an allow list keeps only the tools it names, in their order', () => {
    const result = applyNameLists(tools, { allow: ['bash', 'read'] });
    expect(names(result)).toEqual(['read', 'bash']);
    expect(result.unmatched).toEqual([]);
    expect(result.tools[0]).toBe(tools[0]);
  });

  it('wildcards stay inside their prefix', () => {
    expect(names(applyNameLists(tools, { allow: ['mcp__github__*'] }))).toEqual([
      'mcp__github__create_issue',
      'mcp__github__delete_repo',
    ]);
    expect(names(applyNameLists(tools, { allow: ['*'] }))).toHaveLength(tools.length);
    expect(names(applyNameLists(tools, { allow: ['*_*_*'] }))).toEqual([
      'mcp__github__create_issue',
      'mcp__github__delete_repo',
      'mcp__githubx__y',
    ]);
  });

  it('exact names are case-sensitive, wildcards too', () => {
    expect(names(applyNameLists(tools, { allow: ['Read'] }))).toEqual([]);
    expect(names(applyNameLists(tools, { allow: ['read*'] }))).toEqual(['read']);
    expect(names(applyNameLists(tools, { deny: ['BASH'] }))).toContain('bash');
  });

  it('deny wins over allow', () => {
    const result = applyNameLists(tools, {
      allow: ['mcp__github__*', 'bash'],
      deny: ['mcp__github__delete_*', 'bash'],
    });
    expect(names(result)).toEqual(['mcp__github__create_issue']);
    expect(result.unmatched).toEqual([]);
  });

  it('a deny list alone drops only what it names', () => {
    expect(names(applyNameLists(tools, { deny: ['write', 'mcp__*'] }))).toEqual(['read', 'bash', 'Read_Notes']);
  });

  it('reports allow entries that matched no tool, once each, so hosts can warn about typos', () => {
    const result = applyNameLists(tools, { allow: ['raed', 'bash', 'mcp__gitlab__*', 'raed', 'Bash'] });
    expect(names(result)).toEqual(['bash']);
    expect(result.unmatched).toEqual(['raed', 'mcp__gitlab__*', 'Bash']);
  });

  it('regular-expression characters in names are literal', () => {
    expect(names(applyNameLists([{ name: 'a.b' }, { name: 'axb' }], { allow: ['a.b'] }))).toEqual(['a.b']);
    expect(names(applyNameLists([{ name: 'a.b' }, { name: 'axb' }], { allow: ['a.*'] }))).toEqual(['a.b']);
  });

  it('does not change the input array', () => {
    const input = [...tools];
    applyNameLists(input, { deny: ['*'] });
    expect(input).toEqual(tools);
  });
});
