import { type AnyTool, executeTool, resultText } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpToolSource, type McpToolSource } from './mcp-tool-source.js';
import { type EverythingHttpServer, freePort, mcpTestContext, startEverythingHttp } from './test/mcp-test-servers.js';

function byName(tools: readonly AnyTool[], name: string): AnyTool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
}

describe('server-everything over Streamable HTTP', () => {
  let port: number;
  let server: EverythingHttpServer;
  let source: McpToolSource;
  let tools: readonly AnyTool[];

  beforeAll(async () => {
    port = await freePort();
    server = await startEverythingHttp(port);
    source = createMcpToolSource(
      { name: 'remote', transport: { type: 'http', url: server.url } },
      { reconnectDelayMs: 50 },
    );
    tools = await source.load();
  });
  afterAll(async () => {
    await source.close();
    await server.stop();
  });

  it('lists and calls tools over a session', async () => {
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['mcp__remote__echo', 'mcp__remote__get-sum', 'mcp__remote__list_resources']),
    );
    const status = source.status();
    expect(status.transport).toBe('http');
    expect(status.state).toBe('connected');
    expect(status.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(status.pid).toBeUndefined();
    const sum = await executeTool(byName(tools, 'mcp__remote__get-sum'), { a: 1.5, b: 2 }, mcpTestContext());
    expect(resultText(sum)).toContain('is 3.5');
  });

  it('reads a resource over HTTP', async () => {
    const result = await executeTool(
      byName(tools, 'mcp__remote__read_resource'),
      { uri: 'demo://resource/dynamic/text/4' },
      mcpTestContext(),
    );
    expect(resultText(result)).toContain('Resource 4: This is a plaintext resource');
  });

  it('starts a new session and resends the call after the server restarted', async () => {
    const before = source.status().sessionId;
    await server.stop();
    server = await startEverythingHttp(port);
    // The old session is gone: the server answers 400 "No valid session ID"; the call is resent on a new session.
    const echo = await executeTool(byName(tools, 'mcp__remote__echo'), { message: 'after restart' }, mcpTestContext());
    expect(echo.isError).toBeUndefined();
    expect(resultText(echo)).toBe('Echo: after restart');
    const status = source.status();
    expect(status.state).toBe('connected');
    expect(status.reconnects).toBe(1);
    expect(status.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(status.sessionId).not.toBe(before);
  });

  it('answers with an error result while the server is down, and recovers when it is back', async () => {
    await server.stop();
    const down = await executeTool(byName(tools, 'mcp__remote__echo'), { message: 'x' }, mcpTestContext());
    expect(down.isError).toBe(true);
    expect(resultText(down)).toContain('ECONNREFUSED');
    expect(source.status().state).toBe('failed');
    server = await startEverythingHttp(port);
    const back = await executeTool(byName(tools, 'mcp__remote__echo'), { message: 'back' }, mcpTestContext());
    expect(resultText(back)).toBe('Echo: back');
    expect(source.status().state).toBe('connected');
  });
});
