import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText, type ToolContext } from '@boxagnts/tools';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBashTool } from './bash-tool.js';
import { toNetworkConfig } from './network-config.js';

let server: Server;
let origin: string;
let requests: string[] = [];
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bash-net-'));
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    response.end('pong');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(root, { recursive: true, force: true });
});

beforeEach(() => {
  requests = [];
});

function context(overrides: Partial<ToolContext> = {}): ToolContext {
  return { root, signal: new AbortController().signal, sessionId: 's', turnId: 't', toolCallId: 'c', ...overrides };
}

describe('simulated bash network', () => {
  it('has no network by default: curl to a loopback server never reaches it', async () => {
    const result = await createBashTool().execute({ command: `curl -s ${origin}/hello` }, context());
    expect(resultText(result)).toContain('curl: command not found');
    expect(requests).toEqual([]);
  });

  it('keeps loopback refused when the prefix is allowed but private addresses are not', async () => {
    const tool = createBashTool({ allowNetwork: [origin] });
    const result = await tool.execute({ command: `curl -s ${origin}/hello` }, context());
    expect(resultText(result)).not.toContain('pong');
    expect(requests).toEqual([]);
  });

  it('reaches an allowed prefix when private addresses are allowed (the control case)', async () => {
    const tool = createBashTool({ allowNetwork: [`${origin}/open/`], allowPrivateNetwork: true });
    const allowed = await tool.execute({ command: `curl -s ${origin}/open/x` }, context());
    expect(resultText(allowed)).toContain('pong');
    const other = await tool.execute({ command: `curl -s ${origin}/closed` }, context());
    expect(resultText(other)).not.toContain('pong');
    expect(requests).toEqual(['/open/x']);
  });

  it('with allowNetwork true, allows only the hosts of the call', async () => {
    const tool = createBashTool({ allowNetwork: true, allowPrivateNetwork: true });
    const none = await tool.execute({ command: `curl -s ${origin}/a` }, context());
    expect(resultText(none)).toContain('command not found');
    const host = new URL(origin).host;
    const some = await tool.execute({ command: `curl -s ${origin}/b` }, context({ allowedHosts: [host] }));
    expect(resultText(some)).toContain('pong');
    expect(requests).toEqual(['/b']);
  });
});

describe('toNetworkConfig', () => {
  it('maps the settings to just-bash network configuration', () => {
    expect(toNetworkConfig(undefined, ['a.com'], false)).toBeUndefined();
    expect(toNetworkConfig(false, ['a.com'], false)).toBeUndefined();
    expect(toNetworkConfig(true, [], false)).toBeUndefined();
    expect(toNetworkConfig(true, ['a.com'], false)).toMatchObject({
      allowedUrlPrefixes: ['https://a.com', 'http://a.com'],
      allowedMethods: ['GET', 'HEAD'],
      denyPrivateRanges: true,
    });
    // The one allowlist format: URL entries (BoxAgnts'), bare hosts, hosts with a port.
    expect(
      toNetworkConfig(true, ['https://wttr.in', 'HTTP://Example.com/', 'b.com:8080', '*.x.com', 'bad/path'], false),
    ).toMatchObject({
      allowedUrlPrefixes: ['https://wttr.in', 'http://example.com', 'https://b.com:8080', 'http://b.com:8080'],
    });
    expect(toNetworkConfig(['https://api.x.com/v1/'], undefined, true)).toMatchObject({
      allowedUrlPrefixes: ['https://api.x.com/v1/'],
      denyPrivateRanges: false,
    });
  });
});
