import { createHash } from 'node:crypto';

/** Every tool an MCP source offers is named `mcp__<server>__<tool>`. */
export const MCP_TOOL_PREFIX = 'mcp__';

/** The longest tool name every provider accepts. */
const MAX_LENGTH = 64;
const HASH_LENGTH = 8;

/** `text` with every character outside `[a-zA-Z0-9_-]` replaced by `_` (never empty). */
export function sanitizeToolNamePart(text: string): string {
  const sanitized = text.replace(/[^a-zA-Z0-9_-]/g, '_');
  return sanitized === '' ? '_' : sanitized;
}

/** The first 8 hex digits of SHA-256 of `text`: stable across runs and machines. */
function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, HASH_LENGTH);
}

function hashedName(base: string, rawToolName: string, round: number): string {
  const suffix = `_${shortHash(round === 0 ? rawToolName : `${rawToolName}\u0000${round}`)}`;
  return `${base.slice(0, MAX_LENGTH - suffix.length)}${suffix}`;
}

/**
 * The tool name for one server tool, before collisions are considered: `mcp__<server>__<tool>` with
 * unusable characters replaced by `_`, and names over 64 characters cut and given a short hash of
 * the server's tool name, so two long names that share a prefix stay apart.
 */
export function mcpToolName(server: string, toolName: string): string {
  const base = `${MCP_TOOL_PREFIX}${sanitizeToolNamePart(server)}__${sanitizeToolNamePart(toolName)}`;
  return base.length <= MAX_LENGTH ? base : hashedName(base, toolName, 0);
}

/**
 * Names every tool of one server, resolving collisions deterministically: when several server tool
 * names map to the same name (`a.b` and `a_b`), the one that needed no change keeps it (else the
 * first in code-unit order) and the others get a hash of their own server name appended. Names in
 * `reserved` (the source's own resource tools) are never given to a server tool. The outcome
 * depends only on the set of names, not on the order the server lists them in.
 *
 * @example
 * assignMcpToolNames('files', ['read', 'a.b', 'a_b']).get('a.b'); // 'mcp__files__a_b_<hash>'
 */
export function assignMcpToolNames(
  server: string,
  toolNames: readonly string[],
  reserved: readonly string[] = [],
): Map<string, string> {
  const sorted = [...new Set(toolNames)].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
  const groups = new Map<string, string[]>();
  for (const toolName of sorted) {
    const name = mcpToolName(server, toolName);
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [toolName]);
    else group.push(toolName);
  }
  const used = new Set(reserved);
  const assigned = new Map<string, string>();
  const pending: Array<{ base: string; toolName: string }> = [];
  for (const [name, group] of groups) {
    const keeper = used.has(name)
      ? undefined
      : (group.find((toolName) => sanitizeToolNamePart(toolName) === toolName) ?? group[0]);
    for (const toolName of group) {
      if (toolName === keeper) {
        assigned.set(toolName, name);
        used.add(name);
      } else {
        pending.push({
          base: `${MCP_TOOL_PREFIX}${sanitizeToolNamePart(server)}__${sanitizeToolNamePart(toolName)}`,
          toolName,
        });
      }
    }
  }
  for (const { base, toolName } of pending) {
    let round = 0;
    let name = hashedName(base, toolName, round);
    while (used.has(name)) {
      round += 1;
      name = hashedName(base, toolName, round);
    }
    assigned.set(toolName, name);
    used.add(name);
  }
  return assigned;
}
