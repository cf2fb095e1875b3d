import type { ToolResult, ToolResultContent } from '@boxagnts/tools';
import { type McpContentBlock, mapMcpContent } from './map-mcp-content.js';

/** An MCP `tools/call` result as the SDK returns it (current or legacy `toolResult` shape). */
export interface McpCallToolResult {
  content?: McpContentBlock[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  toolResult?: unknown;
}

/**
 * Maps an MCP tool result to a {@link ToolResult}: content blocks mapped one by one, `isError` kept,
 * `structuredContent` into `metadata.structuredContent` (and shown as JSON when the server sent no
 * content, so the model sees it), plus the server and tool names in `metadata`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#structured-content
 */
export function mapCallToolResult(result: McpCallToolResult, origin: { server: string; tool: string }): ToolResult {
  const content: ToolResultContent[] = (result.content ?? []).flatMap(mapMcpContent);
  if (content.length === 0) {
    if (result.structuredContent !== undefined) {
      content.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
    } else if (result.toolResult !== undefined) {
      content.push({ type: 'text', text: JSON.stringify(result.toolResult) });
    } else {
      content.push({
        type: 'text',
        text: result.isError === true ? 'The tool failed without a message.' : '(no output)',
      });
    }
  }
  const metadata: Record<string, unknown> = { mcpServer: origin.server, mcpTool: origin.tool };
  if (result.structuredContent !== undefined) metadata.structuredContent = result.structuredContent;
  return { content, ...(result.isError === true ? { isError: true } : {}), metadata };
}
