import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpSdk } from './mcp-sdk.js';
import type { McpHttpTransportConfig, McpStdioTransportConfig } from './mcp-server-config.js';

/** How much of a server's stderr is kept for error messages and `status()`. */
const STDERR_TAIL_LENGTH = 4_000;

/** A transport plus what the connection reports about it. */
export interface CreatedTransport {
  transport: Transport;
  /** The child's process id (stdio) once started. */
  pid(): number | undefined;
  /** The Streamable HTTP session id, once the server assigned one. */
  sessionId(): string | undefined;
  /** The last few thousand characters the child wrote to stderr (stdio). */
  stderrTail(): string;
}

/** Keeps the end of a growing text. */
function createTail(): { append(text: string): void; text(): string } {
  let tail = '';
  return {
    append(text) {
      tail = (tail + text).slice(-STDERR_TAIL_LENGTH);
    },
    text: () => tail,
  };
}

/**
 * Creates the SDK transport for a server config. A stdio server's stderr is piped (not inherited),
 * kept as a tail for error messages and passed to `onStderr`.
 */
export function createTransport(
  sdk: McpSdk,
  config: McpStdioTransportConfig | McpHttpTransportConfig,
  onStderr?: (text: string) => void,
): CreatedTransport {
  if (config.type === 'http') {
    const transport = new sdk.StreamableHTTPClientTransport(new URL(config.url), {
      ...(config.headers === undefined ? {} : { requestInit: { headers: config.headers } }),
    });
    return { transport, pid: () => undefined, sessionId: () => transport.sessionId, stderrTail: () => '' };
  }
  const transport = new sdk.StdioClientTransport({
    command: config.command,
    args: config.args ?? [],
    ...(config.env === undefined ? {} : { env: config.env }),
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    stderr: 'pipe',
  });
  const tail = createTail();
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    const text = chunk.toString();
    tail.append(text);
    onStderr?.(text);
  });
  return { transport, pid: () => transport.pid ?? undefined, sessionId: () => undefined, stderrTail: tail.text };
}
