import type { AnyTool } from '@boxagnts/tools';
import { accessFilter } from '../access/access-level.js';
import { applyNameLists } from '../access/name-lists.js';
import type { AccessLevel } from '../types.js';
import type { SourcedTool } from './load-sources.js';
import { ToolNameCollisionError } from './tool-set-error.js';

/** Options of {@link selectTools}. */
export interface SelectToolsOptions {
  access: AccessLevel;
  allow?: readonly string[];
  deny?: readonly string[];
}

/**
 * Keeps the tools the access level admits (by permission), then those the allow/deny lists keep
 * (by name), then checks that no two remaining tools share a name: a collision the lists resolve
 * (by denying the name) is no error. Returns the tools and the list names that matched nothing.
 */
export function selectTools(
  entries: readonly SourcedTool[],
  options: SelectToolsOptions,
): { entries: SourcedTool[]; unmatchedNames: string[] } {
  const admits = accessFilter(options.access);
  const admitted = entries.filter((entry) => admits(entry.tool.permission));
  const firstByName = new Map<string, AnyTool>();
  for (const entry of admitted) {
    if (!firstByName.has(entry.tool.name)) firstByName.set(entry.tool.name, entry.tool);
  }
  const listed = applyNameLists([...firstByName.values()], {
    ...(options.allow === undefined ? {} : { allow: options.allow }),
    ...(options.deny === undefined ? {} : { deny: options.deny }),
  });
  const kept = new Set(listed.tools.map((tool) => tool.name));
  const selected = admitted.filter((entry) => kept.has(entry.tool.name));
  const owner = new Map<string, string>();
  for (const entry of selected) {
    const first = owner.get(entry.tool.name);
    if (first !== undefined) throw new ToolNameCollisionError(entry.tool.name, first, entry.source.name);
    owner.set(entry.tool.name, entry.source.name);
  }
  return { entries: selected, unmatchedNames: [...listed.unmatched] };
}
