import { compileWildcard } from '../permissions/wildcard.js';

/** Allow and deny lists of tool names; `*` is a wildcard, everything else is compared exactly (case-sensitive). */
export interface ToolNameLists {
  allow?: readonly string[];
  deny?: readonly string[];
}

/**
 * Filters tools by name lists: a tool a deny entry matches is dropped; when the allow list has
 * entries, only tools one of them matches are kept (an empty or missing allow list keeps all).
 * `unmatched` lists the allow entries that matched no tool at all, so hosts can warn about typos.
 *
 * @example
 * applyNameLists(tools, { allow: ['read', 'mcp__github__*'], deny: ['mcp__github__delete_*'] });
 * // { tools: [read, mcp__github__create_issue, ...], unmatched: [] }
 */
export function applyNameLists<T extends { name: string }>(
  tools: readonly T[],
  lists: ToolNameLists,
): { tools: T[]; unmatched: string[] } {
  const allow = (lists.allow ?? []).map((entry) => ({ entry, matches: nameMatcher(entry) }));
  const deny = (lists.deny ?? []).map(nameMatcher);
  const used = new Set<string>();
  const kept: T[] = [];
  for (const tool of tools) {
    const allowedBy = allow.filter(({ matches }) => matches(tool.name));
    for (const { entry } of allowedBy) used.add(entry);
    if (deny.some((matches) => matches(tool.name))) continue;
    if (allow.length > 0 && allowedBy.length === 0) continue;
    kept.push(tool);
  }
  const unmatched = [...new Set(allow.map(({ entry }) => entry))].filter((entry) => !used.has(entry));
  return { tools: kept, unmatched };
}

function nameMatcher(entry: string): (name: string) => boolean {
  if (!entry.includes('*')) return (name) => name === entry;
  return compileWildcard(entry);
}
