import { errorResult, type ToolResult } from '@boxagnts/tools';
import { describeMcpFailure, isConnectionLostError, isRequestTimeoutError } from './classify-mcp-failure.js';
import { isMcpConnectionError } from './mcp-errors.js';
import { loadedMcpSdk } from './mcp-sdk.js';

/**
 * Turns a failed request to a server into an error result the model can act on, naming what
 * happened: cancelled, timed out, server unavailable, connection lost mid-call, or rejected by the
 * server. `metadata.failure` carries the kind for hosts.
 */
export function callFailureResult(options: {
  server: string;
  /** What was attempted, e.g. `call tool "echo"`. */
  action: string;
  error: unknown;
  signal: AbortSignal;
  timeoutMs: number;
}): ToolResult {
  const { server, action, error } = options;
  const metadata = (failure: string) => ({ mcpServer: server, failure });
  if (options.signal.aborted) {
    return errorResult(
      `MCP server "${server}": ${action} was cancelled; the server was told to stop (notifications/cancelled).`,
      metadata('cancelled'),
    );
  }
  if (isRequestTimeoutError(error)) {
    return errorResult(
      `MCP server "${server}": ${action} got no answer within ${options.timeoutMs} ms and was cancelled. Try a smaller request, or raise timeoutMs for this server.`,
      metadata('timeout'),
    );
  }
  if (isMcpConnectionError(error)) {
    return errorResult(`MCP server "${server}" is unavailable: ${error.message}`, metadata('unavailable'));
  }
  if (isConnectionLostError(error)) {
    return errorResult(
      `MCP server "${server}": the connection was lost during ${action} (${describeMcpFailure(error)}); it may or may not have taken effect. The next call reconnects.`,
      metadata('connection-lost'),
    );
  }
  const McpError = loadedMcpSdk()?.McpError;
  if (McpError !== undefined && error instanceof McpError) {
    return errorResult(`MCP server "${server}" rejected ${action}: ${error.message}`, metadata('rejected'));
  }
  return errorResult(`MCP server "${server}": ${action} failed: ${describeMcpFailure(error)}`, metadata('failed'));
}
