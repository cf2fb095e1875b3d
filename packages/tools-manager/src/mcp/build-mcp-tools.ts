import type { JsonSchema } from '@boxagnts/api';
import { type AnyTool, defineTool, type ToolContext, type ToolResult } from '@boxagnts/tools';
import { z } from 'zod';
import { type McpToolAnnotations, mapToolPermission } from './map-tool-permission.js';
import { assignMcpToolNames } from './mcp-tool-names.js';
import { createToolNameFilter } from './name-patterns.js';
import { schemaBoundsProblem } from './schema-bounds.js';

/** A tool as an MCP server lists it (`tools/list`), loosely typed. */
export interface McpListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  annotations?: McpToolAnnotations & { title?: string };
  execution?: { taskSupport?: string };
}

/** Calls one server tool by its server name; never throws. */
export type McpCallServerTool = (
  toolName: string,
  input: Record<string, unknown>,
  context: ToolContext,
) => Promise<ToolResult>;

/** What {@link buildMcpTools} made of a server's list. */
export interface BuiltMcpTools {
  tools: AnyTool[];
  /** Server tools left out because they can only run as MCP tasks (`execution.taskSupport: "required"`). */
  unsupported: string[];
  /** Server tools refused because what the server listed cannot be used safely (an input schema out of bounds). */
  refused: Array<{ name: string; reason: string }>;
}

/** Longest description kept: some servers put whole manuals there, which every turn would pay for. */
const MAX_DESCRIPTION = 4_000;

/**
 * The server's input schema as sent to the model: `$schema` dropped (providers reject it), `type:
 * "object"` and `properties` guaranteed (some providers need both).
 */
export function normalizeInputSchema(schema: Record<string, unknown> | undefined): JsonSchema {
  const { $schema: _ignored, ...rest } = schema ?? {};
  const properties = typeof rest.properties === 'object' && rest.properties !== null ? rest.properties : {};
  return { ...rest, type: 'object', properties };
}

function describe(server: string, tool: McpListedTool): string {
  const text = (tool.description ?? '').trim() || tool.title || tool.annotations?.title || `Tool "${tool.name}".`;
  const bounded = text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
  return `[MCP server ${server}] ${bounded}`;
}

/**
 * Turns a server's tool list into tools: filtered by allow/deny (deny wins), named
 * `mcp__<server>__<tool>` (see `assignMcpToolNames`), permission from the annotations, the server's
 * own JSON Schema sent to the model and a permissive zod schema locally (the server validates), each
 * call going to `call` with the server's own tool name.
 */
export function buildMcpTools(options: {
  server: string;
  listed: readonly McpListedTool[];
  call: McpCallServerTool;
  allow?: readonly string[];
  deny?: readonly string[];
  deferred?: boolean;
  timeoutMs?: number;
  /** Names taken by the source's own tools (resource tools). */
  reserved?: readonly string[];
}): BuiltMcpTools {
  const offered = createToolNameFilter({
    ...(options.allow === undefined ? {} : { allow: options.allow }),
    ...(options.deny === undefined ? {} : { deny: options.deny }),
  });
  const unsupported: string[] = [];
  const usable: McpListedTool[] = [];
  const refused: Array<{ name: string; reason: string }> = [];
  for (const tool of options.listed) {
    if (!offered(tool.name)) continue;
    const problem = schemaBoundsProblem(tool.inputSchema);
    if (problem !== undefined) refused.push({ name: tool.name, reason: problem });
    else if (tool.execution?.taskSupport === 'required') unsupported.push(tool.name);
    else usable.push(tool);
  }
  const names = assignMcpToolNames(
    options.server,
    usable.map((tool) => tool.name),
    options.reserved,
  );
  const tools = usable.map((listed) =>
    defineTool({
      name: names.get(listed.name) ?? listed.name,
      description: describe(options.server, listed),
      inputSchema: z.looseObject({}),
      jsonSchema: normalizeInputSchema(listed.inputSchema),
      permission: mapToolPermission(listed.annotations),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.deferred === true ? { deferred: true } : {}),
      execute: (input, context) => options.call(listed.name, input, context),
    }),
  );
  return { tools, unsupported, refused };
}
