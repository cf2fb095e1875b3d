import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { resultText } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackServer, mapLookup, startServer, toolContext } from './loopback.test-helpers.js';
import { createWebFetchTool } from './web-fetch-tool.js';

// Servers on loopback play the "private" targets an attacker wants to reach. The assertions check
// both the refusal and that the target never saw a request.
let target: LoopbackServer; // 127.0.0.1: the private service
let target6: LoopbackServer; // ::1
let internal: LoopbackServer; // 127.0.0.2: an untrusted private host
let site: LoopbackServer; // 127.0.0.1 too, but reached as the allowed, trusted "site.test"
let bomb: Buffer;
let brotliBomb: Buffer;

beforeAll(async () => {
  const zeros = Buffer.alloc(32 * 1024 * 1024);
  bomb = gzipSync(zeros, { level: 9 });
  brotliBomb = brotliCompressSync(zeros, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  target = await startServer('127.0.0.1', (_request, response) => response.end('private data'));
  target6 = await startServer('::1', (_request, response) => response.end('private data'));
  internal = await startServer('127.0.0.2', (_request, response) => response.end('internal data'));
  site = await startServer('127.0.0.1', (request, response) => {
    const path = request.url ?? '/';
    const redirects: Record<string, string> = {
      '/to-literal': `http://${internal.authority}/secret`,
      '/to-name': `http://evil.test:${internal.port}/secret`,
      '/to-ipv6': `http://${target6.authority}/secret`,
      '/to-metadata': 'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      '/to-mapped': `http://[::ffff:127.0.0.2]:${internal.port}/secret`,
      '/to-decimal': `http://2130706434:${internal.port}/secret`,
    };
    const location = redirects[path];
    if (location !== undefined) {
      response.writeHead(302, { location }).end();
    } else if (path === '/bomb') {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(bomb);
    } else if (path === '/brotli-bomb') {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' }).end(brotliBomb);
    } else if (path === '/trickle') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => response.write('.'), 20);
      response.on('close', () => clearInterval(timer));
    } else if (path === '/silent') {
      // Never answers: the deadline must cover waiting for headers too.
    } else {
      response.end('site data');
    }
  });
});

afterAll(async () => {
  await Promise.all([target, target6, internal, site].map((server) => server.close()));
});

/** web_fetch with DEFAULT address settings: nothing trusted, the system resolver. */
const openTool = () => createWebFetchTool({ allowedHosts: ['*://*:*'] });

async function expectBlocked(result: Awaited<ReturnType<ReturnType<typeof openTool>['execute']>>, reason: string) {
  expect(result.isError, resultText(result)).toBe(true);
  expect(result.metadata).toMatchObject({ reason });
}

describe('web_fetch address checks with default settings', () => {
  it('refuses loopback in every spelling the URL parser accepts, before connecting', async () => {
    const urls = [
      `http://127.0.0.1:${target.port}/`,
      `http://0x7f.1:${target.port}/`,
      `http://2130706433:${target.port}/`,
      `http://127.1:${target.port}/`,
      `http://0177.0.0.1:${target.port}/`,
      `http://[::ffff:127.0.0.1]:${target.port}/`,
      `http://[::ffff:7f00:1]:${target.port}/`,
      `http://[::1]:${target6.port}/`,
      `http://[0:0:0:0:0:0:0:1]:${target6.port}/`,
      `http://0.0.0.0:${target.port}/`,
    ];
    for (const url of urls) {
      const result = await openTool().execute({ url }, toolContext());
      await expectBlocked(result, 'blocked-address');
      expect(resultText(result)).toMatch(/public addresses/);
    }
    expect(target.requests).toEqual([]);
    expect(target6.requests).toEqual([]);
  });

  it('refuses the cloud metadata service', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://[fd00:ec2::254]/latest/meta-data']) {
      const result = await openTool().execute({ url }, toolContext());
      await expectBlocked(result, 'blocked-address');
      expect(resultText(result)).toMatch(/metadata/);
    }
  });

  it('refuses names that resolve to loopback, checked on the resolved address', async () => {
    const viaSystemResolver = await openTool().execute({ url: `http://localhost:${target.port}/` }, toolContext());
    await expectBlocked(viaSystemResolver, 'blocked-address');
    const lookups = mapLookup({
      'rebind.test': '127.0.0.1',
      'mixed.test': ['93.184.215.14', '127.0.0.1'],
      'mapped.test': '::ffff:127.0.0.1',
      'internal.test': '10.0.0.7',
    });
    const resolving = createWebFetchTool({ allowedHosts: ['*://*:*'], lookup: lookups });
    for (const host of ['rebind.test', 'mixed.test', 'mapped.test']) {
      const result = await resolving.execute({ url: `http://${host}:${target.port}/` }, toolContext());
      await expectBlocked(result, 'blocked-address');
      expect(resultText(result)).toContain(`${host} resolves to`);
    }
    expect(target.requests).toEqual([]);
  });

  it('trusts only the configured ranges', async () => {
    const trusting = createWebFetchTool({
      allowedHosts: ['*://*:*'],
      trustedAddresses: ['127.0.0.1/32'],
      lookup: mapLookup({ 'site.test': '127.0.0.1', 'evil.test': '127.0.0.2' }),
    });
    expect(resultText(await trusting.execute({ url: `http://site.test:${site.port}/` }, toolContext()))).toContain(
      'site data',
    );
    await expectBlocked(
      await trusting.execute({ url: `http://evil.test:${internal.port}/` }, toolContext()),
      'blocked-address',
    );
    await expectBlocked(
      await trusting.execute({ url: `http://127.0.0.2:${internal.port}/` }, toolContext()),
      'blocked-address',
    );
    expect(internal.requests).toEqual([]);
  });
});

describe('web_fetch redirects', () => {
  const tool = () =>
    createWebFetchTool({
      allowedHosts: ['*://*:*'],
      trustedAddresses: ['127.0.0.1/32'],
      lookup: mapLookup({ 'site.test': '127.0.0.1', 'evil.test': '127.0.0.2' }),
    });

  it('re-checks every hop: an allowed host cannot bounce the fetch to a private one', async () => {
    for (const path of ['/to-literal', '/to-name', '/to-ipv6', '/to-metadata', '/to-mapped', '/to-decimal']) {
      const result = await tool().execute({ url: `http://site.test:${site.port}${path}` }, toolContext());
      await expectBlocked(result, 'blocked-address');
      expect(result.metadata).toMatchObject({ redirects: [`http://site.test:${site.port}${path}`] });
    }
    expect(internal.requests).toEqual([]);
    expect(target6.requests).toEqual([]);
  });

  it('re-checks the allowlist on redirects', async () => {
    const narrow = createWebFetchTool({
      allowedHosts: [`http://site.test:${site.port}`],
      trustedAddresses: ['127.0.0.0/8'],
      lookup: mapLookup({ 'site.test': '127.0.0.1', 'evil.test': '127.0.0.2' }),
    });
    const result = await narrow.execute({ url: `http://site.test:${site.port}/to-name` }, toolContext());
    await expectBlocked(result, 'not-allowed');
    expect(internal.requests).toEqual([]);
  });
});

describe('web_fetch allowlist, schemes and URL tricks', () => {
  const narrow = () =>
    createWebFetchTool({
      allowedHosts: [`http://site.test:${site.port}`],
      trustedAddresses: ['127.0.0.0/8'],
      lookup: mapLookup({ 'site.test': '127.0.0.1', 'other.test': '127.0.0.1', 'evil.test': '127.0.0.2' }),
    });

  it('refuses hosts and ports that are not allowlisted, saying how to allow them', async () => {
    const before = site.requests.length;
    const other = await narrow().execute({ url: `http://other.test:${site.port}/` }, toolContext());
    await expectBlocked(other, 'not-allowed');
    expect(resultText(other)).toContain(`adding "http://other.test:${site.port}"`);
    await expectBlocked(
      await narrow().execute({ url: `http://site.test:${target.port}/` }, toolContext()),
      'not-allowed',
    );
    await expectBlocked(
      await narrow().execute({ url: `https://site.test:${site.port}/` }, toolContext()),
      'not-allowed',
    );
    expect(site.requests.length).toBe(before);
    expect(target.requests).toEqual([]);
  });

  it('refuses schemes other than http and https', async () => {
    const all = createWebFetchTool({ allowedHosts: ['*://*:*'] });
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/file',
      'data:text/plain,hello',
      'javascript:alert(1)',
      'gopher://127.0.0.1:6379/_INFO',
    ]) {
      const result = await all.execute({ url }, toolContext());
      await expectBlocked(result, 'scheme');
    }
  });

  it('is not fooled by user info, fragments or backslashes in the authority', async () => {
    const urls = [
      `http://site.test:${site.port}@127.0.0.2:${internal.port}/`,
      `http://site.test@evil.test:${internal.port}/`,
      `http://127.0.0.2:${internal.port}#@site.test:${site.port}/`,
      `http://127.0.0.2:${internal.port}?@site.test:${site.port}/`,
      `http://evil.test:${internal.port}\\@site.test:${site.port}/`,
    ];
    for (const url of urls) {
      const result = await narrow().execute({ url }, toolContext());
      await expectBlocked(result, 'not-allowed');
    }
    expect(internal.requests).toEqual([]);
    // The reverse form reaches the allowed host: the authority ends at the backslash.
    const reverse = await narrow().execute(
      { url: `http://site.test:${site.port}\\@evil.test:${internal.port}/` },
      toolContext(),
    );
    expect(resultText(reverse)).toContain('site data');
    expect(internal.requests).toEqual([]);
  });
});

describe('web_fetch resource caps', () => {
  const tool = (overrides: Parameters<typeof createWebFetchTool>[0] = {}) =>
    createWebFetchTool({
      allowedHosts: [`http://site.test:${site.port}`],
      trustedAddresses: ['127.0.0.1/32'],
      lookup: mapLookup({ 'site.test': '127.0.0.1' }),
      ...overrides,
    });

  it('stops a gzip or brotli bomb at the decoded size cap', async () => {
    for (const path of ['/bomb', '/brotli-bomb']) {
      const result = await tool({ maxBytes: 1024 * 1024 }).execute(
        { url: `http://site.test:${site.port}${path}`, max_length: 10 },
        toolContext(),
      );
      expect(result.isError).toBeUndefined();
      expect(resultText(result)).toContain('[The response was cut at 1048576 decoded bytes');
      expect(result.metadata).toMatchObject({ bytes: 1024 * 1024, truncated: true });
    }
  });

  it('enforces an overall deadline on a server that trickles bytes', async () => {
    const result = await tool({ timeoutMs: 400 }).execute(
      { url: `http://site.test:${site.port}/trickle` },
      toolContext(),
    );
    await expectBlocked(result, 'timeout');
    expect(resultText(result)).toMatch(/400 ms deadline/);
  });

  it('enforces the deadline while waiting for headers', async () => {
    const result = await tool({ timeoutMs: 300 }).execute(
      { url: `http://site.test:${site.port}/silent` },
      toolContext(),
    );
    await expectBlocked(result, 'timeout');
  });
});
