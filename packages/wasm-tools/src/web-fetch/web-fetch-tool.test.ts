import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { resultText } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AllowedHostError } from './allowed-hosts.js';
import { type LoopbackServer, mapLookup, startServer, toolContext } from './loopback.test-helpers.js';
import { createWebFetchTool } from './web-fetch-tool.js';

const ARTICLE = `<!doctype html><html><head><title>Sandbox Notes</title><style>body{color:red}</style>
<script>window.secretToken = "leak";</script></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>WebAssembly sandboxes</h1>
<p>A sandbox runs untrusted code with only the capabilities it is handed. ${'Capabilities are passed per call, never global. '.repeat(12)}</p>
<p>Read the <a href="/docs/policy">policy documentation</a> for the details of <strong>path checks</strong>.</p>
<pre><code>const policy = createPathPolicy({ root });</code></pre>
<ul><li>first point</li><li>second point</li></ul></article>
<footer>Copyright footer</footer></body></html>`;

let site: LoopbackServer;
let base: string;

beforeAll(async () => {
  site = await startServer('127.0.0.1', (request, response) => {
    const path = request.url ?? '/';
    if (path === '/page') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    } else if (path === '/json') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"answer":42,"items":["a","b"]}');
    } else if (path === '/latin1') {
      response
        .writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
        .end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    } else if (path === '/image.png') {
      response
        .writeHead(200, { 'content-type': 'image/png', 'content-length': '8' })
        .end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
    } else if (path === '/untyped') {
      response.writeHead(200).end(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
    } else if (path === '/gzip') {
      response
        .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
        .end(gzipSync('gzip body text'));
    } else if (path === '/br') {
      response
        .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' })
        .end(brotliCompressSync('brotli body text'));
    } else if (path === '/deflate') {
      response
        .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'deflate' })
        .end(deflateSync('deflate body text'));
    } else if (path === '/zstd') {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'zstd' }).end('not really zstd');
    } else if (path === '/long') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(10_000));
    } else if (path === '/missing') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    } else if (path === '/redirect') {
      response.writeHead(302, { location: '/json' }).end();
    } else {
      response.writeHead(500).end('unexpected');
    }
  });
  base = `http://site.test:${site.port}`;
});

afterAll(async () => {
  await site.close();
});

function tool(overrides: Parameters<typeof createWebFetchTool>[0] = {}) {
  return createWebFetchTool({
    allowedHosts: [`http://site.test:${site.port}`],
    trustedAddresses: ['127.0.0.1/32'],
    lookup: mapLookup({ 'site.test': '127.0.0.1' }),
    ...overrides,
  });
}

describe('web_fetch tool', () => {
  it('is a network tool named web_fetch', () => {
    const webFetch = tool();
    expect(webFetch.name).toBe('web_fetch');
    expect(webFetch.permission).toBe('network');
    expect(webFetch.inputSchema.safeParse({ url: 'https://x.test', format: 'pdf' }).success).toBe(false);
  });

  it('turns an HTML page into Markdown of its main content', async () => {
    const result = await tool().execute({ url: `${base}/page` }, toolContext());
    const text = resultText(result);
    expect(result.isError).toBeUndefined();
    expect(text).toContain(`URL: ${base}/page`);
    expect(text).toContain('Title: Sandbox Notes');
    // Readability turns the article's h1 into h2 (the page title is the h1).
    expect(text).toMatch(/^## WebAssembly sandboxes$/m);
    expect(text).toContain(`[policy documentation](${base}/docs/policy)`);
    expect(text).toContain('**path checks**');
    expect(text).toContain('```\nconst policy = createPathPolicy({ root });\n```');
    expect(text).toMatch(/^-\s+first point$/m);
    expect(text).not.toContain('Copyright footer');
    expect(text).not.toContain('secretToken');
    expect(text).not.toContain('color:red');
    expect(result.metadata).toMatchObject({ status: 200, url: `${base}/page`, truncated: false });
  });

  it('returns plain text or the raw HTML on request', async () => {
    const plain = resultText(await tool().execute({ url: `${base}/page`, format: 'text' }, toolContext()));
    expect(plain).toMatch(/^WebAssembly sandboxes$/m);
    expect(plain).toMatch(/^first point$/m);
    expect(plain).not.toContain('**');
    const raw = resultText(await tool().execute({ url: `${base}/page`, format: 'html' }, toolContext()));
    expect(raw).toContain('<article><h1>WebAssembly sandboxes</h1>');
  });

  it('returns JSON and text as they are, in their charset', async () => {
    const json = resultText(await tool().execute({ url: `${base}/json` }, toolContext()));
    expect(json.endsWith('\n\n{"answer":42,"items":["a","b"]}')).toBe(true);
    const latin = resultText(await tool().execute({ url: `${base}/latin1` }, toolContext()));
    expect(latin.endsWith('café')).toBe(true);
  });

  it('describes binary content instead of returning bytes', async () => {
    for (const path of ['/image.png', '/untyped']) {
      const result = await tool().execute({ url: `${base}${path}` }, toolContext());
      const text = resultText(result);
      expect(text).toMatch(/Binary content/);
      expect(text).not.toContain('PNG');
      expect(result.metadata).toMatchObject({ binary: true });
    }
    expect(resultText(await tool().execute({ url: `${base}/image.png` }, toolContext()))).toContain(
      'image/png, 8 bytes',
    );
  });

  it('decodes gzip, brotli and deflate, and names codings it cannot decode', async () => {
    for (const coding of ['gzip', 'br', 'deflate'] as const) {
      const text = resultText(await tool().execute({ url: `${base}/${coding}` }, toolContext()));
      expect(text.endsWith(`${coding === 'br' ? 'brotli' : coding} body text`)).toBe(true);
    }
    const zstd = await tool().execute({ url: `${base}/zstd` }, toolContext());
    expect(zstd.isError).toBe(true);
    expect(resultText(zstd)).toMatch(/Content-Encoding "zstd"/);
  });

  it('caps the content at max_length and the body at maxBytes, saying so', async () => {
    const short = resultText(await tool().execute({ url: `${base}/long`, max_length: 100 }, toolContext()));
    expect(short).toContain(`${'x'.repeat(100)}\n\n[Content truncated to 100 characters`);
    expect(short).not.toContain('x'.repeat(101));
    const capped = await tool({ maxBytes: 1000 }).execute({ url: `${base}/long` }, toolContext());
    expect(resultText(capped)).toContain('[The response was cut at 1000 decoded bytes');
    expect(capped.metadata).toMatchObject({ bytes: 1000, truncated: true });
  });

  it('reports HTTP errors as error results with the status', async () => {
    const result = await tool().execute({ url: `${base}/missing` }, toolContext());
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^HTTP 404 from/);
    expect(resultText(result)).toContain('no such page');
    expect(result.metadata).toMatchObject({ status: 404, reason: 'http-status' });
  });

  it('follows redirects within the allowlist', async () => {
    const result = await tool().execute({ url: `${base}/redirect` }, toolContext());
    expect(resultText(result)).toContain(`Redirected from: ${base}/redirect`);
    expect(result.metadata).toMatchObject({ url: `${base}/json`, redirects: [`${base}/redirect`] });
  });

  it("uses the run's allowedHosts when no list is configured", async () => {
    const webFetch = tool({ allowedHosts: undefined });
    const allowed = await webFetch.execute({ url: `${base}/json` }, toolContext({ allowedHosts: ['http://*.test:*'] }));
    expect(resultText(allowed)).toContain('"answer":42');
    const before = site.requests.length;
    const none = await webFetch.execute({ url: `${base}/json` }, toolContext());
    expect(none.isError).toBe(true);
    expect(resultText(none)).toMatch(/no allowed hosts.*allowedHosts/s);
    expect(none.metadata).toMatchObject({ reason: 'no-allowed-hosts' });
    const bad = await webFetch.execute({ url: `${base}/json` }, toolContext({ allowedHosts: ['site.test/page'] }));
    expect(bad.isError).toBe(true);
    expect(resultText(bad)).toMatch(/has a path/);
    expect(site.requests.length).toBe(before);
    // The bare host form of the workspace config: that host and port, http or https.
    const port = new URL(base).port;
    const bare = await webFetch.execute({ url: `${base}/json` }, toolContext({ allowedHosts: [`site.test:${port}`] }));
    expect(resultText(bare)).toContain('"answer":42');
    const otherPort = await webFetch.execute({ url: `${base}/json` }, toolContext({ allowedHosts: ['site.test'] }));
    expect(otherPort.isError).toBe(true);
  });

  it('refuses bad configuration at creation and bad URLs as results', async () => {
    expect(() => createWebFetchTool({ allowedHosts: ['https://exa*mple.com'] })).toThrow(AllowedHostError);
    expect(() => createWebFetchTool({ trustedAddresses: ['somewhere'] })).toThrow(/CIDR/);
    const result = await tool().execute({ url: 'site.test/page' }, toolContext());
    expect(result).toMatchObject({ isError: true, metadata: { reason: 'bad-url' } });
  });

  it('stops when the run is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await tool().execute({ url: `${base}/json` }, toolContext({ signal: controller.signal }));
    expect(result).toMatchObject({ isError: true, metadata: { reason: 'cancelled' } });
  });
});
