import { compileWildcard } from './wildcard.js';

/** Tests one simple command's text against a command pattern. */
export type CommandMatcher = (command: string) => boolean;

/**
 * Compiles a command pattern: `npm test:*` matches `npm test` and anything starting with
 * `npm test ` (a word boundary, so not `npm testx`); a pattern with `*` is a wildcard over the whole
 * command; anything else must equal the command. Blanks in the pattern are collapsed like the
 * command's.
 *
 * @example
 * compileCommandPattern('git commit:*')("git commit -m 'x; y'"); // true
 */
export function compileCommandPattern(pattern: string, options: { ignoreCase?: boolean } = {}): CommandMatcher {
  const normalized = pattern.trim().replace(/[ \t]+/g, ' ');
  if (normalized.endsWith(':*')) {
    const prefix = normalized.slice(0, -2).trimEnd();
    const alone = compileWildcard(prefix, options);
    const followed = compileWildcard(`${prefix} *`, options);
    return (command) => alone(command) || followed(command);
  }
  return compileWildcard(normalized, options);
}
