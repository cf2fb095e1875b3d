import { resultText } from '@boxagnts/tools';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { callFailureResult } from './call-failure-result.js';
import {
  describeMcpFailure,
  isConnectionLostError,
  isRequestTimeoutError,
  isUndeliveredError,
} from './classify-mcp-failure.js';
import { McpConnectionError } from './mcp-errors.js';
import { loadMcpSdk } from './mcp-sdk.js';

// Errors are classified after a connection attempt, which loads the SDK: load it as one would.
beforeAll(async () => {
  await loadMcpSdk();
});

const refused = Object.assign(new TypeError('fetch failed'), {
  cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
});

describe('isUndeliveredError', () => {
  it('knows the failures that happen before the server sees the request', () => {
    expect(isUndeliveredError(new Error('Not connected'))).toBe(true);
    expect(isUndeliveredError(refused)).toBe(true);
    expect(isUndeliveredError(new StreamableHTTPError(404, 'Session not found'))).toBe(true);
    expect(isUndeliveredError(new StreamableHTTPError(400, 'Bad Request: No valid session ID provided'))).toBe(true);
  });

  it('does not resend what the server may have acted on', () => {
    expect(isUndeliveredError(new StreamableHTTPError(400, 'Bad Request: malformed body'))).toBe(false);
    expect(isUndeliveredError(new StreamableHTTPError(500, 'Internal error'))).toBe(false);
    expect(isUndeliveredError(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'))).toBe(false);
    expect(isUndeliveredError(new McpError(ErrorCode.InvalidParams, 'Not connected'))).toBe(false);
    expect(isUndeliveredError('Not connected')).toBe(false);
  });
});

describe('isConnectionLostError', () => {
  it('recognises a closed connection but not a server error with the same code', () => {
    expect(isConnectionLostError(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'))).toBe(true);
    expect(isConnectionLostError(new McpError(ErrorCode.ConnectionClosed, 'Quota exceeded'))).toBe(false);
    expect(isConnectionLostError(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBe(true);
  });
});

describe('describeMcpFailure', () => {
  it('adds the low-level cause', () => {
    expect(describeMcpFailure(refused)).toBe('fetch failed (ECONNREFUSED: connect)');
    expect(describeMcpFailure('plain')).toBe('plain');
  });
});

describe('callFailureResult', () => {
  const base = { server: 's', action: 'call tool "t"', timeoutMs: 1000 };
  const live = new AbortController().signal;

  it('names a cancellation first, whatever the error', () => {
    const controller = new AbortController();
    controller.abort();
    const result = callFailureResult({ ...base, error: new Error('x'), signal: controller.signal });
    expect(result.metadata).toEqual({ mcpServer: 's', failure: 'cancelled' });
  });

  it.each([
    [new McpError(ErrorCode.RequestTimeout, 'Request timed out'), 'timeout', 'no answer within 1000 ms'],
    [
      new McpConnectionError({ server: 's', transport: 'stdio', message: 'gone' }),
      'unavailable',
      'is unavailable: gone',
    ],
    [
      new McpError(ErrorCode.ConnectionClosed, 'Connection closed'),
      'connection-lost',
      'may or may not have taken effect',
    ],
    [new McpError(ErrorCode.MethodNotFound, 'Method not found'), 'rejected', 'rejected call tool "t"'],
    [new Error('odd'), 'failed', 'failed: odd'],
  ])('%s -> %s', (error, failure, text) => {
    expect(isRequestTimeoutError(error)).toBe(failure === 'timeout');
    const result = callFailureResult({ ...base, error, signal: live });
    expect(result.isError).toBe(true);
    expect(result.metadata).toEqual({ mcpServer: 's', failure });
    expect(resultText(result)).toContain(text);
  });
});

describe('the MCP SDK is loaded lazily', () => {
  it('no shipped module imports SDK values at import time; only mcp-sdk.ts loads them, on first connection', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const source = new URL('..', import.meta.url).pathname;
    const files = (await readdir(source, { recursive: true })).filter(
      (file) => file.endsWith('.ts') && !file.includes('.test.') && !file.split('/').includes('test'),
    );
    const eager: string[] = [];
    for (const file of files) {
      const text = await readFile(join(source, file), 'utf8');
      for (const line of text.split('\n')) {
        if (/^import (?!type )[^;]*'@modelcontextprotocol\/sdk/.test(line)) eager.push(`${file}: ${line}`);
      }
    }
    expect(eager).toEqual([]);
    expect(files).toContain('mcp/mcp-sdk.ts');
  });
});
