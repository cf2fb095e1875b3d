// Outgoing wasi:http of components goes through the host under web_fetch's policy, so BoxAgnts'
// web-fetch component works, and the SSRF attacks web_fetch refuses are refused for it too. A
// loopback test server is reachable only where a test trusts loopback explicitly.
// The same cases run against two components: BoxAgnts' prebuilt web-fetch component (skipped
// where ../shared/fixtures/boxagnts is absent) and one built from source in the test setup with
// componentize-js (test-components/http-web-fetch.js: `fetch()` through
// wasi:http/outgoing-handler, BoxAgnts' calling convention and output), which runs everywhere.
// The first run on a machine builds it (1-2 min on a loaded 2-core machine); later runs reuse it
// from the temp-folder cache (see http-components.test-support.ts).
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type AnyTool, resultText, type ToolContext } from '@boxagnts/tools';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ComponentRuntime, createComponentRuntime } from './component-runtime.js';
import { buildHttpTestComponent } from './http-components.test-support.js';
import { PACKAGE_DIR, tempDir } from './test-fixtures.js';

const WEB_FETCH = join(PACKAGE_DIR, '../../../shared/fixtures/boxagnts/tools/web-fetch-component.wasm');
const HAVE_WEB_FETCH = existsSync(WEB_FETCH);

/** The components the cases run against: where each comes from, and whether it is here. */
const COMPONENTS = [
  {
    label: "BoxAgnts' web-fetch component (skipped where ../shared/fixtures/boxagnts is absent)",
    available: HAVE_WEB_FETCH,
    path: async () => WEB_FETCH,
  },
  {
    label: 'a web-fetch component built from source with componentize-js',
    available: true,
    path: () => buildHttpTestComponent('web-fetch'),
  },
];

/** Building the from-source component the first time on a machine takes 1-2 min; then ms. */
const SETUP_TIMEOUT_MS = 300_000;

let server: Server;
let port: number;
let requests: string[] = [];
let root: string;
let remove: () => Promise<void>;
let trusting: ComponentRuntime;
let strict: ComponentRuntime;

beforeAll(async () => {
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
});

afterAll(async () => {
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

for (const component of COMPONENTS) {
  describe.skipIf(!component.available)(`outgoing HTTP of ${component.label}`, () => {
    let path: string;
    let trustingTool: AnyTool;
    let strictTool: AnyTool;

    beforeAll(async () => {
      path = await component.path();
      trustingTool = await trusting.loadCommandTool(path);
      strictTool = await strict.loadCommandTool(path);
    }, SETUP_TIMEOUT_MS);

    it('is loaded as web-fetch with the network permission, without a manifest', () => {
      expect(trustingTool.name).toBe('web-fetch');
      expect(trustingTool.permission).toBe('network');
    });

    it('fetches an allowed host (loopback trusted on purpose) and returns the page text', async () => {
      const result = await trustingTool.execute(
        { url: `http://127.0.0.1:${port}/page` },
        context([`127.0.0.1:${port}`]),
      );
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
      const writeLevel = await trusting.loadCommandTool(path, {
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
}

it.skipIf(HAVE_WEB_FETCH)(
  "BoxAgnts fixtures are absent: the prebuilt component's cases are skipped (the from-source component's run)",
  () => {
    expect(HAVE_WEB_FETCH).toBe(false);
  },
);
