/**
 * Why an MCP source could not be set up:
 * - `invalid-config`: the server configuration is not usable (see `field`);
 * - `connection-failed`: the server could not be started or reached, or did not complete the handshake.
 */
export type McpSourceErrorReason = 'invalid-config' | 'connection-failed';

/**
 * Marks every MCP source error across duplicate package copies, where `instanceof` fails.
 * `Symbol.for` returns the same symbol in every copy of this package.
 */
const MCP_SOURCE_ERROR_MARKER: unique symbol = Symbol.for('boxagnts.tools-manager.mcp-source-error');

/** Structured context of an {@link McpSourceError}. */
export interface McpSourceErrorOptions {
  reason: McpSourceErrorReason;
  /** What went wrong and what to change. */
  message: string;
  /** The server's configured name (`unnamed` when the config had none). */
  server: string;
  cause?: unknown;
}

/**
 * The base of the MCP source's errors: a closed `reason` and the server it concerns. Test for it with
 * {@link isMcpSourceError}, not `instanceof`. Tool calls never throw these: they are for configuration
 * and startup, where the host must act.
 */
export class McpSourceError extends Error {
  readonly [MCP_SOURCE_ERROR_MARKER] = true;
  override name = 'McpSourceError';
  readonly reason: McpSourceErrorReason;
  readonly server: string;

  constructor(options: McpSourceErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = options.reason;
    this.server = options.server;
  }
}

/** A server configuration that cannot be used; `field` is the path of the bad field (e.g. `transport.url`). */
export class McpConfigError extends McpSourceError {
  override name = 'McpConfigError';
  readonly field: string;

  constructor(options: { server: string; field: string; message: string }) {
    super({ reason: 'invalid-config', server: options.server, message: options.message });
    this.field = options.field;
  }
}

/**
 * A server that could not be started or reached: the command was not found, the process exited at
 * once, the URL refused the connection, or the handshake timed out. `stderrTail` holds the last lines
 * the process wrote (stdio servers), which usually say why.
 */
export class McpConnectionError extends McpSourceError {
  override name = 'McpConnectionError';
  readonly transport: 'stdio' | 'http';
  readonly stderrTail: string;

  constructor(options: {
    server: string;
    transport: 'stdio' | 'http';
    message: string;
    stderrTail?: string;
    cause?: unknown;
  }) {
    super({ reason: 'connection-failed', server: options.server, message: options.message, cause: options.cause });
    this.transport = options.transport;
    this.stderrTail = options.stderrTail ?? '';
  }
}

/** Whether `value` is an {@link McpSourceError} (config or connection) from any copy of this package. */
export function isMcpSourceError(value: unknown): value is McpSourceError {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MCP_SOURCE_ERROR_MARKER] === true
  );
}

/** Whether `value` is an {@link McpConfigError} from any copy of this package. */
export function isMcpConfigError(value: unknown): value is McpConfigError {
  return isMcpSourceError(value) && value.reason === 'invalid-config';
}

/** Whether `value` is an {@link McpConnectionError} from any copy of this package. */
export function isMcpConnectionError(value: unknown): value is McpConnectionError {
  return isMcpSourceError(value) && value.reason === 'connection-failed';
}
