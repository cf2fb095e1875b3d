import type { ToolPermission } from '@boxagnts/tools';

/** The behaviour hints an MCP server attaches to a tool (all optional, all untrusted). */
export interface McpToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * Maps an MCP tool's annotations to a permission level. Missing hints take the spec's defaults
 * (readOnly false, destructive true, openWorld true), which are the cautious ones:
 * - read-only and closed-world (`openWorldHint: false`) -> `read-only`;
 * - read-only and open-world (or openWorld not stated) -> `network` (it reads from outside);
 * - not read-only, explicitly non-destructive and closed-world -> `write` (additive local change);
 * - everything else, and a tool with no annotations -> `execute` (unknown effects: the most cautious).
 * A non-read-only open-world tool is `execute`, never `network`, so `read-only` access never admits it.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/schema#toolannotations
 */
export function mapToolPermission(annotations: McpToolAnnotations | undefined): ToolPermission {
  const readOnly = annotations?.readOnlyHint ?? false;
  const destructive = annotations?.destructiveHint ?? true;
  const openWorld = annotations?.openWorldHint ?? true;
  if (readOnly) return openWorld ? 'network' : 'read-only';
  if (!destructive && !openWorld) return 'write';
  return 'execute';
}
