import { availableParallelism } from 'node:os';
import { resultText } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebFetchTool, WebFetchConfigError } from '../index.js';
import { withTickMonitor } from '../thread-pool/tick-monitor.test-helpers.js';
import { type LoopbackServer, mapLookup, startServer, toolContext } from './loopback.test-helpers.js';

// Issue 12: web_fetch converted HTML (linkedom + Readability + Turndown) on the host's thread,
// after its deadline: 22 KB of nested <div>s stalled the event loop for 89 s, 32 KB of unclosed
// tables for 156 s. Issue 13: an empty HTML body threw a TypeError. Each hostile page here is
// fetched while a host timer ticks every 20 ms.

const PAGES: Record<string, string> = {
  '/nested-divs': `<!doctype html><html><body>${'<div>'.repeat(4_400)}deep text`,
  '/unclosed-tables': `<!doctype html><html><body>${'<table><tr><td>x'.repeat(2_000)}`,
  '/many-paragraphs': `<!doctype html><html><body>${'<p><b>word</b> <i>word</i> <a href="/x">link</a></p>'.repeat(120_000)}`,
  '/empty': '',
  '/blank': '  \n\t ',
  '/doctype-only': '<!doctype html>',
  '/ok':
    '<!doctype html><html><head><title>Fine</title></head><body><article><p>All good here.</p></article></body></html>',
};

let site: LoopbackServer;
let base: string;
/** Responses of `/nested-divs` fully written so far. */
let nestedServed = 0;

beforeAll(async () => {
  site = await startServer('127.0.0.1', (request, response) => {
    const page = PAGES[request.url ?? ''];
    if (page === undefined) response.writeHead(404).end();
    else {
      if (request.url === '/nested-divs') response.on('finish', () => nestedServed++);
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
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

const MAX_GAP_MS = 1_000;

describe('web_fetch never blocks the host on hostile HTML', () => {
  it.each([
    ['/nested-divs', 'markdown'],
    ['/unclosed-tables', 'markdown'],
    ['/unclosed-tables', 'text'],
  ] as const)('%s (%s): stopped at the 3 s deadline while host timers keep firing', async (path, format) => {
    const { value: result, report } = await withTickMonitor(() =>
      tool({ timeoutMs: 3_000 }).execute({ url: `${base}${path}`, format }, toolContext()),
    );
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ reason: 'conversion-timeout' });
    expect(resultText(result)).toContain('format "html"');
    expect(report.longestGapMs).toBeLessThan(MAX_GAP_MS);
    expect(report.elapsedMs).toBeLessThan(3_000 + MAX_GAP_MS * 4);
  });

  it('a page whose DOM outgrows the conversion memory cap ends with a clear error', async () => {
    const webFetch = tool({ timeoutMs: 60_000, maxConversionMemoryBytes: 24 * 1024 * 1024 });
    const { value: result, report } = await withTickMonitor(() =>
      webFetch.execute({ url: `${base}/many-paragraphs` }, toolContext()),
    );
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ reason: 'conversion-memory' });
    expect(resultText(result)).toContain('24 MiB');
    expect(report.longestGapMs).toBeLessThan(MAX_GAP_MS);
    const after = await webFetch.execute({ url: `${base}/ok` }, toolContext());
    expect(resultText(after)).toContain('All good here.');
  }, 90_000);

  it('a cancelled conversion ends soon after the abort', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    const { value: result, report } = await withTickMonitor(() =>
      tool({ timeoutMs: 60_000 }).execute({ url: `${base}/nested-divs` }, toolContext({ signal: controller.signal })),
    );
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ reason: 'cancelled' });
    expect(report.longestGapMs).toBeLessThan(MAX_GAP_MS);
    expect(report.elapsedMs).toBeLessThan(30_000);
  });
});

describe('web_fetch when every conversion thread is busy', () => {
  it('a page no thread can begin converting within the deadline ends as conversion-busy, and the tool works after', async () => {
    // A heap cap no other test uses gives these calls a pool of their own; each of its threads
    // converts a hostile page for 4 s, and one more call with a 1 s deadline waits behind them.
    const threads = Math.max(2, availableParallelism());
    const maxConversionMemoryBytes = 200 * 1024 * 1024 + 4096;
    const before = nestedServed;
    const busy = Array.from({ length: threads }, () =>
      tool({ timeoutMs: 4_000, maxConversionMemoryBytes }).execute({ url: `${base}/nested-divs` }, toolContext()),
    );
    let busyEnded = false;
    const allBusy = Promise.all(busy).then((results) => {
      busyEnded = true;
      return results;
    });
    // The busy calls queue their conversions right after their pages arrive.
    while (nestedServed < before + threads) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const impatient = tool({ timeoutMs: 1_000, maxConversionMemoryBytes });
    const refused = await impatient.execute({ url: `${base}/ok` }, toolContext());
    expect(busyEnded).toBe(false);
    expect(refused.isError).toBe(true);
    expect(refused.metadata).toMatchObject({ reason: 'conversion-busy', status: 200 });
    expect(resultText(refused)).toContain('no thread was free to convert its HTML to markdown within the 1000 ms');
    expect(resultText(refused)).toContain('format "html"');
    for (const result of await allBusy) expect(result.metadata).toMatchObject({ reason: 'conversion-timeout' });
    expect(resultText(await impatient.execute({ url: `${base}/ok` }, toolContext()))).toContain('All good here.');
  }, 30_000);
});

describe('web_fetch on empty HTML (issue 13)', () => {
  it.each(['/empty', '/blank', '/doctype-only'])('%s gives an empty result in every format', async (path) => {
    for (const format of ['markdown', 'text', 'html'] as const) {
      const result = await tool().execute({ url: `${base}${path}`, format }, toolContext());
      expect(result.isError).toBeUndefined();
      expect(resultText(result)).toContain('Status: 200');
      expect(result.metadata).toMatchObject({ status: 200 });
    }
  });
});

describe('web_fetch conversion settings', () => {
  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses maxConversionMemoryBytes %s', (value) => {
    expect(() => createWebFetchTool({ maxConversionMemoryBytes: value })).toThrow(WebFetchConfigError);
    expect(() => createWebFetchTool({ maxConversionMemoryBytes: value })).toThrow(/positive number of bytes/);
  });
});
