import { ACCESS_LEVELS, type AccessLevel, accessAllows, type ToolPermission } from '@boxagnts/tools';
import type { AccessFilter } from '../types.js';

// One rule for the whole toolbox: @boxagnts/tools owns it (the query loop applies it to agent definitions too).

const ACCESS_LEVEL_ERROR_MARKER = Symbol.for('boxagnts.tools-manager.access-level-error');

/** An unknown access level: a configuration mistake, reported when the filter is built. */
export class AccessLevelError extends Error {
  readonly [ACCESS_LEVEL_ERROR_MARKER] = true;
  override readonly name = 'AccessLevelError';
  readonly level: unknown;

  constructor(level: unknown) {
    super(`Unknown access level ${JSON.stringify(level) ?? String(level)}: use one of ${ACCESS_LEVELS.join(', ')}.`);
    this.level = level;
  }
}

/** True for an {@link AccessLevelError}, even one from another copy of this package. */
export function isAccessLevelError(error: unknown): error is AccessLevelError {
  return typeof error === 'object' && error !== null && ACCESS_LEVEL_ERROR_MARKER in error;
}

/** True when the value is an {@link AccessLevel}; for checking configuration read at run time. */
export function isAccessLevel(value: unknown): value is AccessLevel {
  return typeof value === 'string' && (ACCESS_LEVELS as readonly string[]).includes(value);
}

/**
 * The permission levels an access level admits, as a predicate: `full` admits every tool,
 * `read-only` admits `read-only` and `network` tools, `search-only` only `read-only` ones.
 * Throws an {@link AccessLevelError} for an unknown level.
 *
 * @example
 * accessFilter('read-only')('network'); // true
 * accessFilter('search-only')('network'); // false
 */
export function accessFilter(level: AccessLevel): AccessFilter {
  if (!isAccessLevel(level)) throw new AccessLevelError(level);
  return (permission) => accessAllows(level, permission);
}

/**
 * Keeps the tools an access level admits, by their permission (never by name), in their order.
 *
 * @example
 * filterToolsByAccess([readTool, bashTool, webFetchTool], 'read-only'); // [readTool, webFetchTool]
 */
export function filterToolsByAccess<T extends { permission: ToolPermission }>(
  tools: readonly T[],
  level: AccessLevel,
): T[] {
  const admits = accessFilter(level);
  return tools.filter((tool) => admits(tool.permission));
}
