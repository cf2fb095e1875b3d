import picomatch from 'picomatch';

const cache = new Map<string, (name: string) => boolean>();

/**
 * Whether a hook's `matcher` covers a tool name: glob syntax (`*`, `?`, `{a,b}`, `!negation`),
 * compared case-insensitively like permission rules; no matcher covers every tool.
 *
 * @example
 * hookMatches('mcp__github__*', 'mcp__github__create_issue'); // true
 */
export function hookMatches(matcher: string | undefined, toolName: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  let test = cache.get(matcher);
  if (test === undefined) {
    test = picomatch(matcher, { nocase: true, dot: true });
    cache.set(matcher, test);
  }
  return test(toolName);
}
