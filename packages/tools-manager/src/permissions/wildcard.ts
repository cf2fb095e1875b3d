/** Tests a string against a compiled `*` wildcard pattern. */
export type WildcardMatcher = (text: string) => boolean;

/**
 * Compiles a `*` wildcard pattern (`*` matches any run of characters, everything else is literal),
 * the one matching rule shared by tool-name patterns, name lists, command and plain input
 * patterns. Matching takes at most pattern-length x text-length steps, so a hostile subject cannot
 * make it backtrack exponentially the way a regular expression could.
 *
 * @example
 * compileWildcard('mcp__github__*', { ignoreCase: true })('MCP__github__create_issue'); // true
 */
export function compileWildcard(pattern: string, options: { ignoreCase?: boolean } = {}): WildcardMatcher {
  if (options.ignoreCase === true) {
    const lower = pattern.toLowerCase();
    return (text) => matchWildcard(lower, text.toLowerCase());
  }
  return (text) => matchWildcard(pattern, text);
}

function matchWildcard(pattern: string, text: string): boolean {
  let patternIndex = 0;
  let textIndex = 0;
  let star = -1;
  let resume = 0;
  while (textIndex < text.length) {
    const expected = pattern[patternIndex];
    if (expected !== undefined && expected !== '*' && expected === text[textIndex]) {
      patternIndex++;
      textIndex++;
    } else if (expected === '*') {
      star = patternIndex++;
      resume = textIndex;
    } else if (star !== -1) {
      patternIndex = star + 1;
      textIndex = ++resume;
    } else {
      return false;
    }
  }
  while (pattern[patternIndex] === '*') patternIndex++;
  return patternIndex === pattern.length;
}
