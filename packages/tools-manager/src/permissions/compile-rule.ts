import { type CommandMatcher, compileCommandPattern } from './command-pattern.js';
import { compileDomainPattern, type DomainMatcher, normalizeDomain } from './domain-pattern.js';
import { PermissionRuleError, parsePermissionRule } from './parse-rule.js';
import { compilePathPattern, type PathMatcher } from './path-pattern.js';
import { compileWildcard } from './wildcard.js';

/** The list a rule belongs to. Allow rules match strictly; deny and ask rules broadly. */
export type RuleList = 'allow' | 'ask' | 'deny';

/** An input pattern compiled for each kind of subject it may meet. */
export interface CompiledPattern {
  /** Set for `domain:` patterns, which read the call's URL whatever its subject. */
  domain?: DomainMatcher;
  command: CommandMatcher;
  path: PathMatcher;
  text: (value: string) => boolean;
}

/** A rule ready to test: its source, its tool-name test and its input pattern. */
export interface CompiledRule {
  source: string;
  matchesTool(name: string): boolean;
  pattern?: CompiledPattern;
}

const DOMAIN_PREFIX = 'domain:';

/**
 * Parses and compiles one rule for the given list, so bad rules (syntax, or a `domain:` pattern
 * that is not a host name) throw a {@link PermissionRuleError} when the rules are loaded.
 *
 * @example
 * compileRule('Bash(npm test:*)', 'allow').matchesTool('bash'); // true
 */
export function compileRule(text: string, list: RuleList): CompiledRule {
  const parsed = parsePermissionRule(text);
  const rule: CompiledRule = { source: parsed.source, matchesTool: compileWildcard(parsed.tool, { ignoreCase: true }) };
  if (parsed.pattern === undefined) return rule;
  const strength = list === 'allow' ? 'strict' : 'broad';
  const ignoreCase = strength === 'broad';
  const pattern = parsed.pattern;
  rule.pattern = {
    command: compileCommandPattern(pattern, { ignoreCase }),
    path: compilePathPattern(pattern, strength),
    text: compileWildcard(pattern, { ignoreCase }),
  };
  if (pattern.toLowerCase().startsWith(DOMAIN_PREFIX)) {
    const domain = pattern.slice(DOMAIN_PREFIX.length);
    if (normalizeDomain(domain) === undefined) {
      throw new PermissionRuleError(
        text,
        'invalid-domain',
        `Permission rule \`${parsed.source}\` has \`${domain.trim()}\` where a host name belongs: write a bare host such as ` +
          `\`${parsed.tool}(domain:example.com)\` or \`${parsed.tool}(domain:*.example.com)\`, without scheme, port or path.`,
      );
    }
    rule.pattern.domain = compileDomainPattern(domain, strength);
  }
  return rule;
}
