import { loadedMcpSdk } from './mcp-sdk.js';

function causeCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const own = (error as { code?: unknown }).code;
  if (typeof own === 'string') return own;
  const cause = (error as { cause?: unknown }).cause;
  if (typeof cause === 'object' && cause !== null) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/**
 * Whether a request failed before the server could act on it, so it is safe to reconnect and send it
 * again: nothing to send on (`Not connected`), the HTTP server refused the connection, or the server
 * no longer knows the session (404, or 400 naming the session, as some servers answer).
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
 */
export function isUndeliveredError(error: unknown): boolean {
  const sdk = loadedMcpSdk();
  if (sdk !== undefined && error instanceof sdk.StreamableHTTPError) {
    return error.code === 404 || (error.code === 400 && /session/i.test(error.message));
  }
  if (sdk !== undefined && error instanceof sdk.McpError) return false;
  if (error instanceof Error && error.message === 'Not connected') return true;
  return causeCode(error) === 'ECONNREFUSED';
}

/** Whether the connection itself is gone (the process exited, the stream closed): the next call must reconnect. */
export function isConnectionLostError(error: unknown): boolean {
  const sdk = loadedMcpSdk();
  if (sdk !== undefined && error instanceof sdk.McpError)
    return error.code === sdk.ErrorCode.ConnectionClosed && /connection closed/i.test(error.message);
  return isUndeliveredError(error) || ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'].includes(causeCode(error) ?? '');
}

/** Whether the SDK gave up waiting for the answer. */
export function isRequestTimeoutError(error: unknown): boolean {
  const sdk = loadedMcpSdk();
  return sdk !== undefined && error instanceof sdk.McpError && error.code === sdk.ErrorCode.RequestTimeout;
}

/** A one-line description of a failure, with the low-level cause (e.g. `ECONNREFUSED`) when there is one. */
export function describeMcpFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = causeCode(error);
  const cause = (error as { cause?: unknown }).cause;
  const causeText = cause instanceof Error && cause.message !== error.message ? `: ${cause.message}` : '';
  return code !== undefined && !error.message.includes(code) ? `${error.message} (${code}${causeText})` : error.message;
}
