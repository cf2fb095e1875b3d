// Outgoing wasi:http of components goes through the host under web_fetch's policy, so BoxAgnts'
// web-fetch component works, and the SSRF attacks web_fetch refuses are refused for it too. A
// loopback test server is reachable only where a test trusts loopback explicitly.
// Needs BoxAgnts' prebuilt web-fetch component (skipped where ../shared/fixtures/boxagnts is
// absent): this package has no wasi:http WIT to build an equivalent guest from source here.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type AnyTool, resultText, type ToolContext } from '@boxagnts/tools';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ComponentRuntime, createComponentRuntime } from './component-runtime.js';
import { PACKAGE_DIR, tempDir } from './test-fixtures.js';

const WEB_FETCH = join(PACKAGE_DIR, '../../../shared/fixtures/boxagnts/tools/web-fetch-component.wasm');
const HAVE_WEB_FETCH = existsSync(WEB_FETCH);

let server: Server;
let port: number;
let requests: string[] = [];
let root: string;
let remove: () => Promise<void>;
let trusting: ComponentRuntime;
let strict: ComponentRuntime;
let trustingTool: AnyTool;
let strictTool: AnyTool;

beforeAll(async () => {
  if (!HAVE_WEB_FETCH) return;
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    if (request.url === '/to-metadata') {
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      response.end();
    } else if (request.url === '/to-other-port') {
      response.writeHead(302, { location: `http://127.0.0.1:${port + 1}/` });
      response.end();
    } else {
      response.setHeader('content-type', 'text/html');
      response.end('<html><body><h1>Weather</h1><p>Sunny, 21 °C</p></body></html>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const dir = await tempDir('component-network');
  root = dir.path;
  remove = dir.remove;
  const lookup = async (hostname: string) =>
    hostname === 'rebind.test' ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '93.184.215.14', family: 4 }];
  trusting = createComponentRuntime({ workers: 1, network: { trustedAddresses: ['127.0.0.0/8'], lookup } });
  strict = createComponentRuntime({ workers: 1, network: { lookup } });
  trustingTool = await trusting.loadCommandTool(WEB_FETCH);
  strictTool = await strict.loadCommandTool(WEB_FETCH);
}, 60_000);

afterAll(async () => {
  if (!HAVE_WEB_FETCH) return;
  await trusting.close();
  await strict.close();
  await new Promise((resolve) => server.close(resolve));
  await remove();
});

beforeEach(() => {
  requests = [];
});

const context = (allowedHosts?: string[]): ToolContext => ({
  root,
  signal: AbortSignal.timeout(15_000),
  sessionId: 's',
  turnId: 't',
  toolCallId: 'c',
  ...(allowedHosts === undefined ? {} : { allowedHosts }),
});

describe.skipIf(!HAVE_WEB_FETCH)("outgoing HTTP of BoxAgnts' web-fetch component", () => {
  it('fetches an allowed host (loopback trusted on purpose) and returns the page text', async () => {
    const result = await trustingTool.execute({ url: `http://127.0.0.1:${port}/page` }, context([`127.0.0.1:${port}`]));
    expect(result.isError ?? false).toBe(false);
    expect(resultText(result)).toContain('Sunny, 21 °C');
    expect(requests).toEqual(['/page']);
  });

  it('refuses loopback by default, even when the allowlist names it', async () => {
    const result = await strictTool.execute({ url: `http://127.0.0.1:${port}/page` }, context([`127.0.0.1:${port}`]));
    expect(result.isError).toBe(true);
    expect(requests).toEqual([]);
  });

  it('refuses hosts outside the allowlist, and everything without one', async () => {
    const outside = await trustingTool.execute({ url: `http://127.0.0.1:${port}/page` }, context(['example.com']));
    expect(outside.isError).toBe(true);
    const none = await trustingTool.execute({ url: `http://127.0.0.1:${port}/page` }, context());
    expect(none.isError).toBe(true);
    expect(requests).toEqual([]);
  });

  it('refuses other spellings of loopback and a name that resolves to it (every host allowed)', async () => {
    for (const url of [
      `http://2130706433:${port}/`,
      `http://0x7f.1:${port}/`,
      `http://127.1:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://rebind.test:${port}/`,
    ]) {
      const result = await strictTool.execute({ url }, context(['*://*:*']));
      expect(result.isError, url).toBe(true);
    }
    expect(requests).toEqual([]);
  });

  it('re-checks redirects: to the metadata address and to a port outside the allowlist', async () => {
    const metadata = await trustingTool.execute(
      { url: `http://127.0.0.1:${port}/to-metadata` },
      context([`127.0.0.1:${port}`, '*://*:*']),
    );
    expect(metadata.isError).toBe(true);
    const otherPort = await trustingTool.execute(
      { url: `http://127.0.0.1:${port}/to-other-port` },
      context([`127.0.0.1:${port}`]),
    );
    expect(otherPort.isError).toBe(true);
    expect(requests).toEqual(['/to-metadata', '/to-other-port']);
  });

  it('gives no HTTP to a component loaded without the network permission', async () => {
    const writeLevel = await trusting.loadCommandTool(WEB_FETCH, {
      name: 'web-fetch',
      description: 'The same component under the write level.',
      input_schema: { type: 'object', properties: { url: { type: 'string' } } },
      permission: 'write',
    });
    const result = await writeLevel.execute({ url: `http://127.0.0.1:${port}/page` }, context([`127.0.0.1:${port}`]));
    expect(result.isError).toBe(true);
    expect(requests).toEqual([]);
  });
});

it.skipIf(HAVE_WEB_FETCH)('BoxAgnts fixtures are absent: the component network tests are skipped', () => {
  expect(HAVE_WEB_FETCH).toBe(false);
});
