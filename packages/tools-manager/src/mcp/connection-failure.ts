import { describeMcpFailure, isRequestTimeoutError } from './classify-mcp-failure.js';
import { McpConnectionError } from './mcp-errors.js';
import type { ResolvedMcpServerConfig } from './mcp-server-config.js';

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  const causeCode = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof causeCode === 'string' ? causeCode : undefined;
}

/** The URL without credentials or query, safe to show. */
function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(invalid url)';
  }
}

function withStderr(message: string, stderrTail: string): string {
  const tail = stderrTail.trim();
  return tail === '' ? message : `${message}\nLast output on stderr:\n${tail.split('\n').slice(-20).join('\n')}`;
}

/**
 * Turns a failed start or handshake into an {@link McpConnectionError} that says what happened and
 * what to check: the command and PATH, the stderr tail, the URL, or the timeout.
 */
export function toConnectionError(
  config: ResolvedMcpServerConfig,
  error: unknown,
  stderrTail: string,
): McpConnectionError {
  const server = config.name;
  const transport = config.transport;
  const detail = describeMcpFailure(error);
  const code = errorCode(error);
  let message: string;
  if (transport.type === 'stdio') {
    const commandLine = [transport.command, ...(transport.args ?? [])].join(' ');
    if (code === 'ENOENT') {
      message = `MCP server "${server}" could not start: command "${transport.command}" was not found (ENOENT). Check that it is installed and on PATH (the server sees this process's PATH), or give its full path${transport.cwd === undefined ? '' : `, and that cwd "${transport.cwd}" exists`}.`;
    } else if (code === 'EACCES') {
      message = `MCP server "${server}" could not start: "${transport.command}" is not executable (EACCES). Check its file permissions.`;
    } else if (isRequestTimeoutError(error)) {
      message = `MCP server "${server}" did not complete the MCP handshake within ${config.connectTimeoutMs} ms. Check that "${commandLine}" starts an MCP server on stdio (not one waiting for HTTP), or raise connectTimeoutMs.`;
    } else {
      message = `MCP server "${server}" exited or closed its output before completing the MCP handshake (${detail}). Check the command "${commandLine}", its arguments and env (a missing token or bad argument usually shows on stderr).`;
    }
  } else {
    const url = safeUrl(transport.url);
    const status = (error as { code?: unknown } | null)?.code;
    if (code === 'ECONNREFUSED') {
      message = `MCP server "${server}": nothing accepted the connection at ${url} (ECONNREFUSED). Check that the server is running and the URL's host and port.`;
    } else if (isRequestTimeoutError(error)) {
      message = `MCP server "${server}" at ${url} did not answer the initialize request within ${config.connectTimeoutMs} ms. Check that the URL is an MCP Streamable HTTP endpoint, or raise connectTimeoutMs.`;
    } else if (typeof status === 'number' && status > 0) {
      message = `MCP server "${server}": ${url} answered HTTP ${status} to the initialize request (${detail}). Check the URL's path (often /mcp) and the headers (authorization).`;
    } else {
      message = `MCP server "${server}" at ${url} could not be reached (${detail}). Check the URL and that the server speaks MCP Streamable HTTP.`;
    }
  }
  return new McpConnectionError({
    server,
    transport: transport.type,
    message: withStderr(message, stderrTail),
    stderrTail,
    cause: error,
  });
}
