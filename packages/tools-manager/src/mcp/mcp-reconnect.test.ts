import { type AnyTool, executeTool, resultText } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMcpToolSource, type McpToolSource } from './mcp-tool-source.js';
import { everythingBin, isAlive, mcpTestContext } from './test/mcp-test-servers.js';

describe('stdio reconnect and close', () => {
  let source: McpToolSource;
  let echo: AnyTool;

  beforeAll(async () => {
    source = createMcpToolSource(
      { name: 'everything', transport: { type: 'stdio', command: process.execPath, args: [everythingBin, 'stdio'] } },
      { reconnectDelayMs: 50 },
    );
    const tools = await source.load();
    const found = tools.find((tool) => tool.name === 'mcp__everything__echo');
    if (found === undefined) throw new Error('echo missing');
    echo = found;
  });
  afterAll(async () => {
    await source.close();
  });

  it('reconnects on the next call after the child was killed', async () => {
    const firstPid = source.status().pid;
    expect(firstPid).toBeGreaterThan(0);
    process.kill(firstPid as number, 'SIGKILL');
    await vi.waitFor(() => expect(source.status().state).toBe('disconnected'), { timeout: 5_000 });
    expect(source.status().pid).toBeUndefined();
    const result = await executeTool(echo, { message: 'revived' }, mcpTestContext());
    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toBe('Echo: revived');
    const status = source.status();
    expect(status.state).toBe('connected');
    expect(status.reconnects).toBe(1);
    expect(status.pid).toBeGreaterThan(0);
    expect(status.pid).not.toBe(firstPid);
    expect(status.lastError).toContain('connection closed');
  });

  it('answers a call in flight when the child dies with a connection-lost error, not a resend', async () => {
    const tools = await source.load();
    const slow = tools.find((tool) => tool.name === 'mcp__everything__trigger-long-running-operation') as AnyTool;
    const pid = source.status().pid as number;
    const running = slow.execute({ duration: 30, steps: 3 }, mcpTestContext());
    setTimeout(() => process.kill(pid, 'SIGKILL'), 150);
    const result = await running;
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ failure: 'connection-lost' });
    expect(resultText(result)).toContain('may or may not have taken effect');
    expect(resultText(await echo.execute({ message: 'again' }, mcpTestContext()))).toBe('Echo: again');
    expect(source.status().reconnects).toBe(2);
  });

  it('reconnect() replaces the child on request', async () => {
    const before = source.status().pid as number;
    await source.reconnect();
    const after = source.status().pid as number;
    expect(after).not.toBe(before);
    await vi.waitFor(() => expect(isAlive(before)).toBe(false), { timeout: 5_000 });
    expect(resultText(await echo.execute({ message: 'fresh' }, mcpTestContext()))).toBe('Echo: fresh');
  });

  it('close() ends the child process and later calls answer with an error', async () => {
    const pid = source.status().pid as number;
    expect(isAlive(pid)).toBe(true);
    await source.close();
    await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 5_000 });
    expect(source.status().state).toBe('closed');
    const result = await echo.execute({ message: 'too late' }, mcpTestContext());
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('was closed');
    await expect(source.load()).rejects.toMatchObject({ name: 'McpConnectionError' });
  });
});

describe('maxReconnects: 0', () => {
  it('does not reconnect and says how to change that', async () => {
    const source = createMcpToolSource({
      name: 'noretry',
      transport: { type: 'stdio', command: process.execPath, args: [everythingBin, 'stdio'] },
      maxReconnects: 0,
    });
    try {
      const tools = await source.load();
      const echo = tools.find((tool) => tool.name === 'mcp__noretry__echo') as AnyTool;
      const pid = source.status().pid as number;
      process.kill(pid, 'SIGKILL');
      await vi.waitFor(() => expect(source.status().state).toBe('disconnected'), { timeout: 5_000 });
      const result = await echo.execute({ message: 'x' }, mcpTestContext());
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain('maxReconnects is 0');
      await source.reconnect();
      expect(resultText(await echo.execute({ message: 'manual' }, mcpTestContext()))).toBe('Echo: manual');
    } finally {
      await source.close();
    }
  });
});
