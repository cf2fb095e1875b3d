import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

/** The parts of the MCP SDK this package uses at run time. */
export interface McpSdk {
  Client: typeof Client;
  StdioClientTransport: typeof StdioClientTransport;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  StreamableHTTPError: typeof StreamableHTTPError;
  McpError: typeof McpError;
  ErrorCode: typeof ErrorCode;
  ToolListChangedNotificationSchema: typeof ToolListChangedNotificationSchema;
}

let loaded: McpSdk | undefined;
let loading: Promise<McpSdk> | undefined;

/**
 * Loads the MCP SDK the first time a server connects, not when this package is imported: the SDK
 * (its client, transports and schemas) is a large part of the import cost of an agent that has no
 * MCP server.
 */
export function loadMcpSdk(): Promise<McpSdk> {
  if (loaded !== undefined) return Promise.resolve(loaded);
  loading ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([client, stdio, http, types]) => {
    loaded = {
      Client: client.Client,
      StdioClientTransport: stdio.StdioClientTransport,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      StreamableHTTPError: http.StreamableHTTPError,
      McpError: types.McpError,
      ErrorCode: types.ErrorCode,
      ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    };
    return loaded;
  });
  return loading;
}

/**
 * The SDK when a connection has loaded it, else undefined. Errors are classified with it only after
 * a connection attempt, so before that no error can be one of the SDK's.
 */
export function loadedMcpSdk(): McpSdk | undefined {
  return loaded;
}
