import type { AnyTool, ToolLogger, ToolSource } from '@boxagnts/tools';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { buildMcpTools, type McpCallServerTool, type McpListedTool } from './build-mcp-tools.js';
import { callFailureResult } from './call-failure-result.js';
import { describeMcpFailure } from './classify-mcp-failure.js';
import { type McpCallToolResult, mapCallToolResult } from './map-call-tool-result.js';
import { McpConnection, type McpConnectionState } from './mcp-connection.js';
import { isMcpSourceError, McpConnectionError } from './mcp-errors.js';
import { loadedMcpSdk, type McpSdk } from './mcp-sdk.js';
import { type McpServerConfig, parseMcpServerConfig } from './mcp-server-config.js';
import { createResourceTools, type McpResourceRequests, resourceToolNames } from './resource-tools.js';

/** What `status()` reports about a server. */
export interface McpServerStatus {
  server: string;
  transport: 'stdio' | 'http';
  state: McpConnectionState;
  /** The child process id while connected (stdio). */
  pid?: number;
  /** The Streamable HTTP session id while connected. */
  sessionId?: string;
  /** Name and version the server reported at the handshake. */
  serverInfo?: { name: string; version: string };
  /** How many tools the last listing produced (resource tools included). */
  toolCount: number;
  /** Server tools left out because they can only run as MCP tasks. */
  unsupportedTools: string[];
  /** Server tools refused, with why (an input schema nested too deep or too large); the other tools load. */
  refusedTools: Array<{ name: string; reason: string }>;
  /** Successful reconnects so far. */
  reconnects: number;
  /** Failed connect attempts since the last success. */
  failedAttempts: number;
  /** The last connection problem, if any (kept after a later success, for diagnosis). */
  lastError?: string;
  /** The end of what the server process wrote to stderr (stdio). */
  stderrTail: string;
}

/** Options of {@link createMcpToolSource}. */
export interface McpToolSourceOptions {
  /**
   * Called with the new tool list when it changed: after the server sent
   * `notifications/tools/list_changed`, or after a reconnect found a different list.
   */
  onToolsChanged?: (tools: readonly AnyTool[]) => void;
  /** Receives the server process's stderr as it comes (stdio); by default it is only kept as a tail. */
  onStderr?: (text: string) => void;
  /** Where refresh failures are reported. */
  logger?: ToolLogger;
  /** Wait before the second reconnect attempt, doubling for each later one (default 250 ms). */
  reconnectDelayMs?: number;
  /** Name and version this client reports to servers (default `boxagnts` / `0.1.0`). */
  clientInfo?: { name: string; version: string };
}

/** An MCP server as a tool source, with its connection's status and controls. */
export interface McpToolSource extends ToolSource {
  readonly kind: 'mcp';
  /** The server's configured name. */
  readonly server: string;
  /** Connects if needed and lists the server's tools; throws an McpConnectionError when the server cannot be started or reached. */
  load(signal?: AbortSignal): Promise<readonly AnyTool[]>;
  status(): McpServerStatus;
  /** Drops the connection and connects anew (also after `failed`). */
  reconnect(): Promise<void>;
  /** Ends the connection and the server process; the tools then answer with an error. */
  close(): Promise<void>;
}

/** At most this many pages of `tools/list` are read (a server that pages forever is cut off). */
const MAX_LIST_PAGES = 50;

function signatureOf(tools: readonly AnyTool[]): string {
  return JSON.stringify(
    tools.map((tool) => [tool.name, tool.description, tool.permission, tool.jsonSchema ?? null]).sort(),
  );
}

/**
 * Offers an MCP server's tools (stdio child process or Streamable HTTP) as a {@link ToolSource}:
 * tools named `mcp__<server>__<tool>`, permissions from the tool annotations, resources as
 * `list_resources` / `read_resource`, calls cancelled with the context's signal and bounded by
 * `timeoutMs`, failures as error results, dropped connections reconnected on the next call.
 * Throws an McpConfigError at once for a bad config.
 *
 * @example
 * const files = createMcpToolSource({
 *   name: 'files',
 *   transport: { type: 'stdio', command: 'mcp-server-filesystem', args: ['/srv/data'] },
 *   deny: ['write_file', 'move_file'],
 * });
 * const tools = await files.load();
 * // ...
 * await files.close();
 */
export function createMcpToolSource(config: McpServerConfig, options: McpToolSourceOptions = {}): McpToolSource {
  const resolved = parseMcpServerConfig(config);
  const server = resolved.name;
  const timeoutMs = resolved.timeoutMs;
  let tools: readonly AnyTool[] = [];
  let signature: string | undefined;
  let unsupportedTools: string[] = [];
  let refusedTools: Array<{ name: string; reason: string }> = [];
  let serverInfo: { name: string; version: string } | undefined;
  let refreshCount = 0;

  const refreshAndNotify = async (reason: string): Promise<void> => {
    if (signature === undefined) return;
    try {
      const outcome = await refresh(undefined);
      if (outcome.changed) options.onToolsChanged?.(outcome.tools);
    } catch (error) {
      options.logger?.warn(`MCP server "${server}": refreshing the tool list after ${reason} failed`, {
        error: describeMcpFailure(error),
      });
    }
  };

  const connection = new McpConnection(resolved, {
    clientInfo: options.clientInfo ?? { name: 'boxagnts', version: '0.1.0' },
    reconnectDelayMs: options.reconnectDelayMs ?? 250,
    configureClient: (client) => {
      // The connection loaded the SDK before it configures a client.
      client.setNotificationHandler((loadedMcpSdk() as McpSdk).ToolListChangedNotificationSchema, () => {
        void refreshAndNotify('tools/list_changed');
      });
    },
    onReconnected: () => {
      void refreshAndNotify('reconnect');
    },
    ...(options.onStderr === undefined ? {} : { onStderr: options.onStderr }),
  });

  const call: McpCallServerTool = async (toolName, input, context) => {
    try {
      const result = await connection.run(
        (client) =>
          client.callTool({ name: toolName, arguments: input }, undefined, {
            signal: context.signal,
            timeout: timeoutMs,
          }),
        context.signal,
      );
      return mapCallToolResult(result as unknown as McpCallToolResult, { server, tool: toolName });
    } catch (error) {
      return callFailureResult({ server, action: `call tool "${toolName}"`, error, signal: context.signal, timeoutMs });
    }
  };

  const requests: McpResourceRequests = {
    list: (cursor, context) =>
      connection.run(
        (client) =>
          client.listResources(cursor === undefined ? undefined : { cursor }, {
            signal: context.signal,
            timeout: timeoutMs,
          }),
        context.signal,
      ),
    templates: async (context) => {
      try {
        const result = await connection.run(
          (client) => client.listResourceTemplates(undefined, { signal: context.signal, timeout: timeoutMs }),
          context.signal,
        );
        return result.resourceTemplates;
      } catch {
        return [];
      }
    },
    read: (uri, context) =>
      connection.run(
        (client) => client.readResource({ uri }, { signal: context.signal, timeout: timeoutMs }),
        context.signal,
      ),
    failure: (action, error, context) =>
      callFailureResult({ server, action, error, signal: context.signal, timeoutMs }),
  };

  async function listServerTools(client: Client, signal: AbortSignal | undefined): Promise<McpListedTool[]> {
    if (client.getServerCapabilities()?.tools === undefined) return [];
    const listed: McpListedTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
      // Listing is part of starting up: it gets the connect timeout, not the per-call one.
      const result = await client.listTools(cursor === undefined ? undefined : { cursor }, {
        ...(signal === undefined ? {} : { signal }),
        timeout: resolved.connectTimeoutMs,
      });
      listed.push(...(result.tools as McpListedTool[]));
      cursor = result.nextCursor;
      if (cursor === undefined || cursor === '') break;
    }
    return listed;
  }

  async function refresh(signal: AbortSignal | undefined): Promise<{ tools: readonly AnyTool[]; changed: boolean }> {
    refreshCount += 1;
    const mine = refreshCount;
    const listing = await connection.run(
      async (client) => ({
        listed: await listServerTools(client, signal),
        hasResources: client.getServerCapabilities()?.resources !== undefined,
        info: client.getServerVersion(),
      }),
      signal,
    );
    const resourceTools = listing.hasResources
      ? createResourceTools({ server, requests, deferred: resolved.defer === true, timeoutMs })
      : [];
    const names = resourceToolNames(server);
    const built = buildMcpTools({
      server,
      listed: listing.listed,
      call,
      ...(resolved.allow === undefined ? {} : { allow: resolved.allow }),
      ...(resolved.deny === undefined ? {} : { deny: resolved.deny }),
      deferred: resolved.defer === true,
      timeoutMs,
      reserved: listing.hasResources ? [names.list, names.read] : [],
    });
    const next = [...built.tools, ...resourceTools];
    if (mine !== refreshCount) return { tools: next, changed: false };
    const nextSignature = signatureOf(next);
    const changed = signature !== undefined && nextSignature !== signature;
    tools = next;
    signature = nextSignature;
    unsupportedTools = built.unsupported;
    refusedTools = built.refused;
    for (const refused of built.refused) {
      options.logger?.warn(`MCP server "${server}": tool "${refused.name}" was refused: ${refused.reason}`, {
        server,
        tool: refused.name,
      });
    }
    if (listing.info !== undefined) serverInfo = { name: listing.info.name, version: listing.info.version };
    return { tools: next, changed };
  }

  return {
    name: `mcp:${server}`,
    kind: 'mcp',
    server,
    async load(signal) {
      try {
        return (await refresh(signal)).tools;
      } catch (error) {
        if (isMcpSourceError(error) || signal?.aborted) throw error;
        throw new McpConnectionError({
          server,
          transport: resolved.transport.type,
          message: `MCP server "${server}" connected but listing its tools failed (${describeMcpFailure(error)}). Check the server's logs.`,
          stderrTail: connection.transportInfo.stderrTail,
          cause: error,
        });
      }
    },
    status() {
      return {
        server,
        transport: resolved.transport.type,
        state: connection.state,
        ...connection.transportInfo,
        ...(serverInfo === undefined ? {} : { serverInfo }),
        toolCount: tools.length,
        unsupportedTools: [...unsupportedTools],
        refusedTools: refusedTools.map((refused) => ({ ...refused })),
        reconnects: connection.reconnects,
        failedAttempts: connection.failedAttempts,
        ...(connection.lastError === undefined ? {} : { lastError: connection.lastError }),
      };
    },
    reconnect: () => connection.reconnect(),
    close: () => connection.close(),
  };
}
