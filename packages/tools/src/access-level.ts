import type { ToolPermission } from './tool.js';

/**
 * Which tools an agent gets, by the tools' permission level (never by name):
 * - `full`: every tool;
 * - `read-only`: tools that change nothing locally: `read-only` and `network` (fetching is reading);
 * - `search-only`: only `read-only` tools (look around the root, no network).
 */
export type AccessLevel = 'full' | 'read-only' | 'search-only';

/** The access levels, least restrictive first. */
export const ACCESS_LEVELS: readonly AccessLevel[] = ['full', 'read-only', 'search-only'];

/**
 * Whether an access level admits a tool of this permission level.
 *
 * @example
 * const tools = all.filter((tool) => accessAllows('read-only', tool.permission));
 */
export function accessAllows(level: AccessLevel, permission: ToolPermission): boolean {
  switch (level) {
    case 'full':
      // Only the four levels a tool can declare: a value from bad data admits nothing.
      return (
        permission === 'read-only' || permission === 'write' || permission === 'execute' || permission === 'network'
      );
    case 'read-only':
      return permission === 'read-only' || permission === 'network';
    case 'search-only':
      return permission === 'read-only';
  }
}
