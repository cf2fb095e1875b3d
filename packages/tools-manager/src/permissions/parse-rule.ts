import type { ParsedPermissionRule } from '../types.js';

const PERMISSION_RULE_ERROR_MARKER = Symbol.for('boxagnts.tools-manager.permission-rule-error');

/** Why a permission rule was rejected. */
export type PermissionRuleErrorReason =
  | 'not-a-list'
  | 'not-a-string'
  | 'empty'
  | 'unbalanced-parentheses'
  | 'invalid-tool-pattern'
  | 'empty-pattern'
  | 'text-after-pattern'
  | 'invalid-domain';

/**
 * A permission rule that cannot be understood: thrown when the engine is created or rules are
 * added, so a typo in the configuration fails loudly instead of silently matching nothing.
 */
export class PermissionRuleError extends Error {
  readonly [PERMISSION_RULE_ERROR_MARKER] = true;
  override readonly name = 'PermissionRuleError';
  /** The rule as written. */
  readonly rule: string;
  readonly reason: PermissionRuleErrorReason;

  constructor(rule: string, reason: PermissionRuleErrorReason, message: string) {
    super(message);
    this.rule = rule;
    this.reason = reason;
  }
}

/** True for a {@link PermissionRuleError}, even one from another copy of this package. */
export function isPermissionRuleError(error: unknown): error is PermissionRuleError {
  return typeof error === 'object' && error !== null && PERMISSION_RULE_ERROR_MARKER in error;
}

const SYNTAX = 'write `toolName` or `toolName(pattern)`, e.g. `bash(npm test:*)`, `read(src/**)` or `mcp__github__*`';
const TOOL_PATTERN = /^[A-Za-z0-9_*-]+$/;

/**
 * Parses one permission rule, `toolPattern` or `toolPattern(inputPattern)`, so bad configuration
 * fails at start-up with a message saying what to write instead. Inside the pattern, `\(` and `\)`
 * stand for literal parentheses; other parentheses must be balanced.
 *
 * @example
 * parsePermissionRule('Bash(npm test:*)'); // { source: 'Bash(npm test:*)', tool: 'Bash', pattern: 'npm test:*' }
 */
export function parsePermissionRule(text: string): ParsedPermissionRule {
  if (typeof text !== 'string') {
    throw new PermissionRuleError(
      String(text),
      'not-a-string',
      `A permission rule must be a string, not ${JSON.stringify(text) ?? String(text)}: ${SYNTAX}.`,
    );
  }
  if (text.trim() === '') throw new PermissionRuleError(text, 'empty', `A permission rule is empty: ${SYNTAX}.`);
  const source = text.trim();
  const open = source.indexOf('(');
  const toolPart = open === -1 ? source : source.slice(0, open);
  if (open === -1 && source.includes(')')) {
    throw new PermissionRuleError(
      text,
      'unbalanced-parentheses',
      `Permission rule \`${source}\` has a \`)\` without a \`(\`: ${SYNTAX}.`,
    );
  }
  checkToolPattern(text, source, toolPart);
  if (open === -1) return { source, tool: toolPart };

  const close = findClosingParenthesis(source, open);
  if (close === -1) {
    throw new PermissionRuleError(
      text,
      'unbalanced-parentheses',
      `Permission rule \`${source}\` has unbalanced parentheses: ${SYNTAX}; write \`\\(\` or \`\\)\` for a literal parenthesis inside the pattern.`,
    );
  }
  if (close !== source.length - 1) {
    const rest = source.slice(close + 1);
    if (rest.includes('(') || rest.includes(')')) {
      throw new PermissionRuleError(
        text,
        'unbalanced-parentheses',
        `Permission rule \`${source}\` has unbalanced parentheses: ${SYNTAX}; write \`\\(\` or \`\\)\` for a literal parenthesis inside the pattern.`,
      );
    }
    throw new PermissionRuleError(
      text,
      'text-after-pattern',
      `Permission rule \`${source}\` has text after the closing \`)\`: ${SYNTAX}; use one rule per pattern.`,
    );
  }
  const pattern = unescapeParentheses(source.slice(open + 1, close)).trim();
  if (pattern === '') {
    throw new PermissionRuleError(
      text,
      'empty-pattern',
      `Permission rule \`${source}\` has an empty pattern: write \`${toolPart}\` to match every call of the tool, or put a pattern inside the parentheses.`,
    );
  }
  return { source, tool: toolPart, pattern };
}

function checkToolPattern(text: string, source: string, toolPart: string): void {
  if (toolPart === '') {
    throw new PermissionRuleError(
      text,
      'invalid-tool-pattern',
      `Permission rule \`${source}\` has no tool name before \`(\`: ${SYNTAX}; use \`*(pattern)\` for every tool.`,
    );
  }
  if (!TOOL_PATTERN.test(toolPart)) {
    const suggestion = toolPart.replace(/[^A-Za-z0-9_*-]/g, '');
    throw new PermissionRuleError(
      text,
      'invalid-tool-pattern',
      `Permission rule \`${source}\` has a tool name \`${toolPart}\` with characters other than letters, digits, \`_\`, \`-\` and \`*\`` +
        (suggestion === ''
          ? `: ${SYNTAX}.`
          : `: write \`${suggestion}${source.slice(toolPart.length)}\` (no spaces, dots or quotes).`),
    );
  }
}

/** Index of the `)` closing the `(` at `open`, or -1; `\(` and `\)` do not count. */
function findClosingParenthesis(source: string, open: number): number {
  let depth = 0;
  for (let index = open; index < source.length; index++) {
    const character = source[index];
    if (character === '\\' && (source[index + 1] === '(' || source[index + 1] === ')')) {
      index++;
    } else if (character === '(') {
      depth++;
    } else if (character === ')') {
      depth--;
      if (depth === 0) return index;
    }
  }
  return -1;
}

function unescapeParentheses(pattern: string): string {
  return pattern.replace(/\\([()])/g, '$1');
}
