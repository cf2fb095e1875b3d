import { describe, expect, it } from 'vitest';
import { isPermissionRuleError, PermissionRuleError, parsePermissionRule } from './parse-rule.js';

function parseError(text: string): PermissionRuleError {
  try {
    parsePermissionRule(text);
  } catch (error) {
    if (isPermissionRuleError(error)) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

describe('parsePermissionRule', () => {
  it.each([
    ['read', { source: 'read', tool: 'read' }],
    ['*', { source: '*', tool: '*' }],
    ['mcp__github__*', { source: 'mcp__github__*', tool: 'mcp__github__*' }],
    ['Bash(npm test:*)', { source: 'Bash(npm test:*)', tool: 'Bash', pattern: 'npm test:*' }],
    ['  read(src/**)  ', { source: 'read(src/**)', tool: 'read', pattern: 'src/**' }],
    ['bash(  git status  )', { source: 'bash(  git status  )', tool: 'bash', pattern: 'git status' }],
    [
      'web_fetch(domain:*.example.com)',
      { source: 'web_fetch(domain:*.example.com)', tool: 'web_fetch', pattern: 'domain:*.example.com' },
    ],
    ['bash(echo (a) (b))', { source: 'bash(echo (a) (b))', tool: 'bash', pattern: 'echo (a) (b)' }],
    ['bash(echo \\))', { source: 'bash(echo \\))', tool: 'bash', pattern: 'echo )' }],
    ['bash(echo \\( x)', { source: 'bash(echo \\( x)', tool: 'bash', pattern: 'echo ( x' }],
    ['my-tool_2(x)', { source: 'my-tool_2(x)', tool: 'my-tool_2', pattern: 'x' }],
  ])('parses %j', (text, expected) => {
    expect(parsePermissionRule(text)).toEqual(expected);
  });

  it.each([
    ['', 'empty', /is empty: write `toolName` or `toolName\(pattern\)`/],
    ['   ', 'empty', /is empty/],
    ['bash(npm test', 'unbalanced-parentheses', /unbalanced parentheses: .*write `\\\(` or `\\\)`/],
    ['bash(echo (a)', 'unbalanced-parentheses', /unbalanced parentheses/],
    ['bash(a))', 'unbalanced-parentheses', /unbalanced parentheses/],
    ['bash)', 'unbalanced-parentheses', /`\)` without a `\(`/],
    ['bash(a) x', 'text-after-pattern', /text after the closing `\)`/],
    ['bash()', 'empty-pattern', /write `bash` to match every call of the tool/],
    ['bash(   )', 'empty-pattern', /empty pattern/],
    ['(npm test)', 'invalid-tool-pattern', /no tool name before `\(`.*`\*\(pattern\)`/],
    ['Bash (npm test)', 'invalid-tool-pattern', /write `Bash\(npm test\)`/],
    ['web.fetch', 'invalid-tool-pattern', /write `webfetch`/],
    ['"read"', 'invalid-tool-pattern', /write `read`/],
    ['?', 'invalid-tool-pattern', /letters, digits/],
  ])('rejects %j (%s) with advice', (text, reason, message) => {
    const error = parseError(text);
    expect(error).toBeInstanceOf(PermissionRuleError);
    expect(error.name).toBe('PermissionRuleError');
    expect(error.reason).toBe(reason);
    expect(error.rule).toBe(text);
    expect(error.message).toMatch(message);
  });

  it('recognises its errors by marker, not by class identity', () => {
    const error = parseError('bash(');
    expect(isPermissionRuleError(error)).toBe(true);
    expect(isPermissionRuleError({ [Symbol.for('boxagnts.tools-manager.permission-rule-error')]: true })).toBe(true);
    expect(isPermissionRuleError(new Error('bash('))).toBe(false);
    expect(isPermissionRuleError(undefined)).toBe(false);
  });

  it('rejects a non-string, naming it', () => {
    const error = parseError(42 as unknown as string);
    expect(error.reason).toBe('not-a-string');
    expect(error.message).toMatch(/must be a string, not 42: write `toolName`/);
  });
});
