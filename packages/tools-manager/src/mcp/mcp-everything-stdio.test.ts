import { type AnyTool, executeTool, resultText } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpToolSource, type McpToolSource } from './mcp-tool-source.js';
import { everythingBin, mcpTestContext } from './test/mcp-test-servers.js';

function stdioConfig(extra: Record<string, unknown> = {}) {
  return {
    name: 'everything',
    transport: { type: 'stdio' as const, command: process.execPath, args: [everythingBin, 'stdio'] },
    ...extra,
  };
}

function byName(tools: readonly AnyTool[], name: string): AnyTool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name} in ${tools.map((each) => each.name).join(', ')}`);
  return tool;
}

describe('server-everything over stdio', () => {
  let source: McpToolSource;
  let tools: readonly AnyTool[];

  beforeAll(async () => {
    source = createMcpToolSource(stdioConfig());
    tools = await source.load();
  });
  afterAll(async () => {
    await source.close();
  });

  it('lists the server tools under mcp__everything__ names, with the server schema', () => {
    const names = tools.map((tool) => tool.name);
    for (const known of ['echo', 'get-sum', 'get-tiny-image', 'trigger-long-running-operation']) {
      expect(names).toContain(`mcp__everything__${known}`);
    }
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const echo = byName(tools, 'mcp__everything__echo');
    expect(echo.description).toContain('Echoes back the input string');
    expect(echo.description).toContain('everything');
    expect(echo.jsonSchema).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    });
    expect(echo.jsonSchema).not.toHaveProperty('$schema');
    expect(source.name).toBe('mcp:everything');
    expect(source.kind).toBe('mcp');
  });

  it('leaves out tools that can only run as MCP tasks, and reports them', () => {
    const status = source.status();
    expect(status.unsupportedTools).toContain('simulate-research-query');
    expect(tools.map((tool) => tool.name)).not.toContain('mcp__everything__simulate-research-query');
    expect(status.state).toBe('connected');
    expect(status.serverInfo?.name).toBe('mcp-servers/everything');
    expect(status.toolCount).toBe(tools.length);
    expect(status.pid).toBeGreaterThan(0);
  });

  it('maps annotations to permissions', () => {
    expect(byName(tools, 'mcp__everything__echo').permission).toBe('read-only');
    expect(byName(tools, 'mcp__everything__get-sum').permission).toBe('read-only');
    // readOnly false, destructive false, openWorld true: changes things outside -> execute.
    expect(byName(tools, 'mcp__everything__gzip-file-as-resource').permission).toBe('execute');
    // readOnly false, destructive false, openWorld false: additive local change -> write.
    expect(byName(tools, 'mcp__everything__toggle-simulated-logging').permission).toBe('write');
  });

  it('calls echo and get-sum through executeTool', async () => {
    const echo = await executeTool(byName(tools, 'mcp__everything__echo'), { message: 'hello mcp' }, mcpTestContext());
    expect(echo.isError).toBeUndefined();
    expect(resultText(echo)).toBe('Echo: hello mcp');
    expect(echo.metadata).toMatchObject({ mcpServer: 'everything', mcpTool: 'echo' });
    const sum = await executeTool(byName(tools, 'mcp__everything__get-sum'), { a: 2, b: 40 }, mcpTestContext());
    expect(resultText(sum)).toContain('is 42');
  });

  it('returns the server validation failure as an error result', async () => {
    const result = await executeTool(byName(tools, 'mcp__everything__get-sum'), { a: 'two' }, mcpTestContext());
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/expected number/i);
  });

  it('returns images as image blocks', async () => {
    const result = await executeTool(byName(tools, 'mcp__everything__get-tiny-image'), {}, mcpTestContext());
    const image = result.content.find((block) => block.type === 'image');
    expect(image).toMatchObject({ type: 'image', source: { type: 'base64', mediaType: 'image/png' } });
    const data = image?.type === 'image' && image.source.type === 'base64' ? image.source.data : '';
    expect(Buffer.from(data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(resultText(result)).toContain("Here's the image you requested");
  });

  it('puts structured content in metadata', async () => {
    const result = await executeTool(
      byName(tools, 'mcp__everything__get-structured-content'),
      { location: 'Chicago' },
      mcpTestContext(),
    );
    expect(result.metadata?.structuredContent).toEqual({
      temperature: 36,
      conditions: 'Light rain / drizzle',
      humidity: 82,
    });
  });

  it('shows resource links and embedded resources as text', async () => {
    const links = await executeTool(
      byName(tools, 'mcp__everything__get-resource-links'),
      { count: 2 },
      mcpTestContext(),
    );
    expect(resultText(links)).toContain('Resource link: Blob Resource 1 <demo://resource/dynamic/blob/1>');
    expect(resultText(links)).toContain('<demo://resource/dynamic/text/2>');
    const embedded = await executeTool(
      byName(tools, 'mcp__everything__get-resource-reference'),
      { resourceType: 'Blob', resourceId: 3 },
      mcpTestContext(),
    );
    // A text/plain blob is decoded for the model.
    expect(resultText(embedded)).toContain(
      'Resource demo://resource/dynamic/blob/3 (text/plain):\nResource 3: This is a base64 blob',
    );
  });

  it('lists and reads resources with the read-only resource tools', async () => {
    const list = byName(tools, 'mcp__everything__list_resources');
    const read = byName(tools, 'mcp__everything__read_resource');
    expect(list.permission).toBe('read-only');
    expect(read.permission).toBe('read-only');
    const listing = resultText(await executeTool(list, {}, mcpTestContext()));
    expect(listing).toContain('demo://resource/static/document/architecture.md');
    expect(listing).toContain('demo://resource/dynamic/text/{resourceId}');
    const document = await executeTool(
      read,
      { uri: 'demo://resource/static/document/architecture.md' },
      mcpTestContext(),
    );
    expect(document.isError).toBeUndefined();
    expect(resultText(document)).toMatch(
      /^Resource demo:\/\/resource\/static\/document\/architecture\.md \(text\/markdown\):\n/,
    );
    const dynamic = await executeTool(read, { uri: 'demo://resource/dynamic/text/7' }, mcpTestContext());
    expect(resultText(dynamic)).toContain('Resource 7: This is a plaintext resource');
    const missing = await executeTool(read, { uri: 'demo://resource/nowhere' }, mcpTestContext());
    expect(missing.isError).toBe(true);
    expect(resultText(missing)).toContain('read resource demo://resource/nowhere');
  });

  it('cancels a slow call with the context signal and keeps the connection usable', async () => {
    const controller = new AbortController();
    const slow = byName(tools, 'mcp__everything__trigger-long-running-operation');
    const running = executeTool(slow, { duration: 30, steps: 3 }, mcpTestContext({ signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('user pressed stop')), 200);
    const result = await running;
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('cancelled');
    // Direct call (not through executeTool): the source's own answer names the cancellation.
    const direct = new AbortController();
    const pending = slow.execute({ duration: 30, steps: 3 }, mcpTestContext({ signal: direct.signal }));
    setTimeout(() => direct.abort(), 100);
    const directResult = await pending;
    expect(resultText(directResult)).toContain('notifications/cancelled');
    expect(directResult.metadata).toMatchObject({ failure: 'cancelled' });
    const echo = await executeTool(byName(tools, 'mcp__everything__echo'), { message: 'still here' }, mcpTestContext());
    expect(resultText(echo)).toBe('Echo: still here');
    expect(source.status().reconnects).toBe(0);
  });
});

describe('server-everything with allow/deny, deferral and a short timeout', () => {
  let source: McpToolSource;
  let tools: readonly AnyTool[];

  beforeAll(async () => {
    source = createMcpToolSource(
      stdioConfig({
        allow: ['get-*', 'echo', 'trigger-long-running-operation'],
        deny: ['get-env', 'get-resource-*'],
        defer: true,
        timeoutMs: 400,
      }),
    );
    tools = await source.load();
  });
  afterAll(async () => {
    await source.close();
  });

  it('offers only allowed tools, deny winning, plus the resource tools', () => {
    const names = tools.map((tool) => tool.name).sort();
    expect(names).toEqual(
      [
        'mcp__everything__echo',
        'mcp__everything__get-annotated-message',
        'mcp__everything__get-structured-content',
        'mcp__everything__get-sum',
        'mcp__everything__get-tiny-image',
        'mcp__everything__list_resources',
        'mcp__everything__read_resource',
        'mcp__everything__trigger-long-running-operation',
      ].sort(),
    );
  });

  it('marks every tool deferred and bounds calls by timeoutMs', () => {
    for (const tool of tools) {
      expect(tool.deferred).toBe(true);
      expect(tool.timeoutMs).toBe(400);
    }
  });

  it('answers a call that outlives timeoutMs with an error result', async () => {
    const slow = byName(tools, 'mcp__everything__trigger-long-running-operation');
    const result = await slow.execute({ duration: 10, steps: 2 }, mcpTestContext());
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('no answer within 400 ms');
    const echo = await byName(tools, 'mcp__everything__echo').execute({ message: 'after timeout' }, mcpTestContext());
    expect(resultText(echo)).toBe('Echo: after timeout');
  });
});
