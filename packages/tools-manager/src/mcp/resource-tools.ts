import { type AnyTool, defineTool, errorResult, type ToolContext, type ToolResult } from '@boxagnts/tools';
import { z } from 'zod';
import { mapResourceContents } from './map-mcp-content.js';
import { MCP_TOOL_PREFIX } from './mcp-tool-names.js';

/** A resource as `resources/list` gives it. */
interface ListedResource {
  uri: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A resource template as `resources/templates/list` gives it. */
interface ListedTemplate {
  uriTemplate: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** The requests the resource tools make; each returns the server's answer or throws. */
export interface McpResourceRequests {
  list(cursor: string | undefined, context: ToolContext): Promise<{ resources: ListedResource[]; nextCursor?: string }>;
  /** Resolves to no templates when the server has none (or does not support listing them). */
  templates(context: ToolContext): Promise<ListedTemplate[]>;
  read(
    uri: string,
    context: ToolContext,
  ): Promise<{ contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }> }>;
  /** Turns a failed request into an error result that says what happened. */
  failure(action: string, error: unknown, context: ToolContext): ToolResult;
}

/** The names of the two resource tools of a server. */
export function resourceToolNames(server: string): { list: string; read: string } {
  return { list: `${MCP_TOOL_PREFIX}${server}__list_resources`, read: `${MCP_TOOL_PREFIX}${server}__read_resource` };
}

function line(
  target: string,
  item: { name?: string; title?: string; description?: string; mimeType?: string },
): string {
  const label = item.title ?? item.name;
  const details = [item.mimeType, item.description].filter((part) => part !== undefined && part !== '').join(': ');
  return `- ${target}${label === undefined ? '' : ` — ${label}`}${details === '' ? '' : ` (${details})`}`;
}

/**
 * The `list_resources` and `read_resource` tools of a server that offers resources (both
 * read-only): the model lists URIs (and URI templates) and reads one by URI.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/resources
 */
export function createResourceTools(options: {
  server: string;
  requests: McpResourceRequests;
  deferred?: boolean;
  timeoutMs?: number;
}): AnyTool[] {
  const { server, requests } = options;
  const names = resourceToolNames(server);
  const common = {
    permission: 'read-only' as const,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.deferred === true ? { deferred: true } : {}),
  };
  const list = defineTool({
    name: names.list,
    description: `[MCP server ${server}] List the resources (documents, files, data) this server offers, with their URIs; read one with ${names.read}.`,
    inputSchema: z.object({
      cursor: z.string().optional().describe('The cursor a previous listing returned, to get the next page.'),
    }),
    ...common,
    execute: async ({ cursor }, context) => {
      try {
        const page = await requests.list(cursor, context);
        const templates = cursor === undefined ? await requests.templates(context) : [];
        const parts = [`Resources of MCP server "${server}" (${page.resources.length}):`];
        parts.push(...page.resources.map((resource) => line(resource.uri, resource)));
        if (page.resources.length === 0) parts.push('(none)');
        if (templates.length > 0) {
          parts.push(`Resource templates (fill in the {variables} and pass the URI to ${names.read}):`);
          parts.push(...templates.map((template) => line(template.uriTemplate, template)));
        }
        if (page.nextCursor !== undefined) parts.push(`More resources: call again with cursor "${page.nextCursor}".`);
        return { content: [{ type: 'text', text: parts.join('\n') }], metadata: { mcpServer: server } };
      } catch (error) {
        return requests.failure('list resources', error, context);
      }
    },
  });
  const read = defineTool({
    name: names.read,
    description: `[MCP server ${server}] Read one resource of this server by its URI (from ${names.list}).`,
    inputSchema: z.object({ uri: z.string().min(1).describe('The resource URI, e.g. file:///notes/today.md.') }),
    ...common,
    execute: async ({ uri }, context) => {
      try {
        const result = await requests.read(uri, context);
        if (result.contents.length === 0)
          return errorResult(`Resource ${uri} of MCP server "${server}" has no contents.`);
        return { content: result.contents.flatMap(mapResourceContents), metadata: { mcpServer: server, uri } };
      } catch (error) {
        return requests.failure(`read resource ${uri}`, error, context);
      }
    },
  });
  return [list, read];
}
