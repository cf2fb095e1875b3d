/** A `*` glob as a whole-string regular expression (`*` matches any run of characters, even none). */
function globToRegExp(pattern: string): RegExp {
  const escaped = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${escaped}$`);
}

/**
 * Decides which server tools a source offers from `allow` and `deny` lists of server tool names with
 * `*` globs. Deny wins; without an allow list everything not denied is offered. Matching is exact
 * (case-sensitive), as servers name their tools.
 *
 * @example
 * const offered = createToolNameFilter({ allow: ['read_*'], deny: ['read_secret'] });
 * offered('read_file'); // true
 */
export function createToolNameFilter(lists: {
  allow?: readonly string[];
  deny?: readonly string[];
}): (toolName: string) => boolean {
  const allow = lists.allow?.map(globToRegExp);
  const deny = (lists.deny ?? []).map(globToRegExp);
  return (toolName) => {
    if (deny.some((pattern) => pattern.test(toolName))) return false;
    return allow === undefined || allow.some((pattern) => pattern.test(toolName));
  };
}
