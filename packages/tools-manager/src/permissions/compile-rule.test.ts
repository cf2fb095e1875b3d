import { describe, expect, it } from 'vitest';
import { compileRule } from './compile-rule.js';
import { isPermissionRuleError } from './parse-rule.js';
import { placePath } from './path-pattern.js';

describe('compileRule', () => {
  it('matches tool names case-insensitively with wildcards', () => {
    const rule = compileRule('MCP__GitHub__*', 'allow');
    expect(rule.source).toBe('MCP__GitHub__*');
    expect(rule.matchesTool('mcp__github__create_issue')).toBe(true);
    expect(rule.matchesTool('mcp__githubx__y')).toBe(false);
    expect(rule.pattern).toBeUndefined();
  });

  it('allow patterns compare exactly, deny and ask patterns ignore case', () => {
    const allow = compileRule('bash(npm test:*)', 'allow');
    const deny = compileRule('bash(npm test:*)', 'deny');
    const ask = compileRule('read(Secrets/**)', 'ask');
    expect(allow.pattern?.command('NPM test')).toBe(false);
    expect(deny.pattern?.command('NPM test')).toBe(true);
    expect(ask.pattern?.path(placePath('secrets/key', '/repo'))).toBe(true);
    expect(compileRule('read(Secrets/**)', 'allow').pattern?.path(placePath('secrets/key', '/repo'))).toBe(false);
    expect(compileRule('skill(Deploy)', 'allow').pattern?.text('deploy')).toBe(false);
    expect(compileRule('skill(Deploy)', 'deny').pattern?.text('deploy')).toBe(true);
  });

  it('recognises `domain:` in any case and compiles only then a domain test', () => {
    expect(compileRule('web_fetch(Domain:Example.com)', 'allow').pattern?.domain?.('https://example.com/')).toBe(true);
    expect(compileRule('web_fetch(example.com)', 'allow').pattern?.domain).toBeUndefined();
  });

  it.each([
    'web_fetch(domain:https://x.com)',
    'web_fetch(domain:x.com/path)',
    'web_fetch(domain:x.com:443)',
    'web_fetch(domain:)',
  ])('rejects %j with the form to write', (text) => {
    let caught: unknown;
    try {
      compileRule(text, 'deny');
    } catch (error) {
      caught = error;
    }
    expect(isPermissionRuleError(caught)).toBe(true);
    expect((caught as { reason: string }).reason).toBe('invalid-domain');
    expect((caught as Error).message).toContain('`web_fetch(domain:example.com)` or `web_fetch(domain:*.example.com)`');
  });
});
