import { describe, expect, it } from 'vitest';
import { isMcpConfigError, type McpConfigError } from './mcp-errors.js';
import { MCP_SERVER_DEFAULTS, parseMcpServerConfig } from './mcp-server-config.js';

function configError(raw: unknown): McpConfigError {
  try {
    parseMcpServerConfig(raw);
  } catch (error) {
    if (isMcpConfigError(error)) return error;
    throw error;
  }
  throw new Error('expected an McpConfigError');
}

describe('parseMcpServerConfig', () => {
  it('fills in the defaults', () => {
    const config = parseMcpServerConfig({
      name: 'files',
      transport: { type: 'stdio', command: 'node', args: ['x.js'] },
    });
    expect(config.timeoutMs).toBe(MCP_SERVER_DEFAULTS.timeoutMs);
    expect(config.connectTimeoutMs).toBe(30_000);
    expect(config.maxReconnects).toBe(3);
    expect(config.transport).toEqual({ type: 'stdio', command: 'node', args: ['x.js'] });
  });

  it('accepts an http transport with headers', () => {
    const config = parseMcpServerConfig({
      name: 'remote',
      transport: { type: 'http', url: 'https://example.test/mcp', headers: { authorization: 'Bearer t' } },
      timeoutMs: 5_000,
    });
    expect(config.transport).toEqual({
      type: 'http',
      url: 'https://example.test/mcp',
      headers: { authorization: 'Bearer t' },
    });
    expect(config.timeoutMs).toBe(5_000);
  });

  it.each([
    [{ name: 'bad name', transport: { type: 'stdio', command: 'x' } }, 'name', 'bad name'],
    [{ name: 'a__b', transport: { type: 'stdio', command: 'x' } }, 'name', 'a__b'],
    [{ name: 'ok', transport: { type: 'stdio', command: '  ' } }, 'transport.command', 'ok'],
    [{ name: 'ok', transport: { type: 'http', url: 'ftp://host/mcp' } }, 'transport.url', 'ok'],
    [{ name: 'ok', transport: { type: 'ws', url: 'x' } }, 'transport.type', 'ok'],
    [{ name: 'ok', transport: { type: 'stdio', command: 'x' }, timeoutMs: -1 }, 'timeoutMs', 'ok'],
    [{ name: 'ok', transport: { type: 'stdio', command: 'x' }, deny: [''] }, 'deny.0', 'ok'],
    [{ name: 'ok', transport: { type: 'stdio', command: 'x' }, maxReconnects: 100 }, 'maxReconnects', 'ok'],
    [{ name: 'ok', transport: { type: 'stdio', command: 'x', env: { A: 1 } } }, 'transport.env.A', 'ok'],
    [{ transport: { type: 'stdio', command: 'x' } }, 'name', 'unnamed'],
  ])('rejects %j naming field %s', (raw, field, server) => {
    const error = configError(raw);
    expect(error.field).toBe(field);
    expect(error.server).toBe(server);
    expect(error.message).toContain(`MCP server "${server}"`);
    expect(error.message).toContain(field);
  });

  it('names unknown keys (a typo is not silently ignored)', () => {
    const error = configError({ name: 'ok', transport: { type: 'stdio', command: 'x' }, timeout: 5 });
    expect(error.message).toContain('timeout');
    expect(error.reason).toBe('invalid-config');
  });
});
