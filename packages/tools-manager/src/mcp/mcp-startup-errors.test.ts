import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isMcpConfigError, isMcpConnectionError, type McpConnectionError } from './mcp-errors.js';
import { createMcpToolSource, type McpToolSource } from './mcp-tool-source.js';
import { fixtureServerPath, freePort, isAlive } from './test/mcp-test-servers.js';

const opened: McpToolSource[] = [];

function open(...args: Parameters<typeof createMcpToolSource>): McpToolSource {
  const source = createMcpToolSource(...args);
  opened.push(source);
  return source;
}

async function loadError(source: McpToolSource): Promise<McpConnectionError> {
  try {
    await source.load();
  } catch (error) {
    if (isMcpConnectionError(error)) return error;
    throw error;
  }
  throw new Error('expected load() to fail');
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((source) => source.close()));
});

describe('startup errors', () => {
  it('a missing command is an McpConnectionError naming the server and what to check', async () => {
    const source = open({ name: 'ghost', transport: { type: 'stdio', command: 'boxagnts-no-such-mcp-server-binary' } });
    const error = await loadError(source);
    expect(error.server).toBe('ghost');
    expect(error.transport).toBe('stdio');
    expect(error.message).toContain('MCP server "ghost"');
    expect(error.message).toContain('ENOENT');
    expect(error.message).toContain('PATH');
    expect(source.status().state).toBe('failed');
    expect(source.status().lastError).toContain('ENOENT');
  });

  it('a server that exits at once is reported with its stderr tail', async () => {
    const source = open({
      name: 'broken',
      transport: { type: 'stdio', command: process.execPath, args: [fixtureServerPath, 'exit-at-once'] },
    });
    const error = await loadError(source);
    expect(error.message).toContain('exited or closed its output before completing the MCP handshake');
    expect(error.stderrTail).toContain('fatal: FIXTURE_TOKEN is not set');
    expect(error.message).toContain('fatal: FIXTURE_TOKEN is not set');
    expect(source.status().stderrTail).toContain('FIXTURE_TOKEN');
  });

  it('a server that never answers the handshake times out and its process is ended', async () => {
    const stderr: string[] = [];
    const folder = await mkdtemp(join(tmpdir(), 'mcp-silent-'));
    const pidFile = join(folder, 'pid');
    const source = open(
      {
        name: 'silent',
        transport: {
          type: 'stdio',
          command: process.execPath,
          args: [fixtureServerPath, 'silent'],
          env: { PID_FILE: pidFile },
        },
        connectTimeoutMs: 2_000,
      },
      { onStderr: (text) => stderr.push(text) },
    );
    const error = await loadError(source);
    expect(error.message).toContain('did not complete the MCP handshake within 2000 ms');
    expect(error.message).toContain('connectTimeoutMs');
    expect(source.status().pid).toBeUndefined();
    expect(stderr.join('')).toBe('silent server started\n');
    const pid = Number(await readFile(pidFile, 'utf8'));
    expect(pid).toBeGreaterThan(0);
    await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 5_000 });
    await rm(folder, { recursive: true, force: true });
  });

  it('a refused HTTP connection names the URL and ECONNREFUSED, never the headers', async () => {
    const port = await freePort();
    const source = open({
      name: 'offline',
      transport: {
        type: 'http',
        url: `http://127.0.0.1:${port}/mcp?token=abc`,
        headers: { authorization: 'Bearer s3cret' },
      },
    });
    const error = await loadError(source);
    expect(error.transport).toBe('http');
    expect(error.message).toContain(`http://127.0.0.1:${port}/mcp`);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).not.toContain('s3cret');
    expect(error.message).not.toContain('token=abc');
  });

  it('a bad config throws McpConfigError at creation, before anything starts', () => {
    let caught: unknown;
    try {
      createMcpToolSource({ name: 'x', transport: { type: 'http', url: 'not a url' } });
    } catch (error) {
      caught = error;
    }
    expect(isMcpConfigError(caught)).toBe(true);
    expect(caught).toMatchObject({ server: 'x', field: 'transport.url' });
  });
});
