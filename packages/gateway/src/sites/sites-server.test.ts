import { brotliCompressSync, gzipSync } from 'node:zlib';
import { workspaceSites } from '@boxagnts/workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SitesRig, startSitesRig } from './sites.test-support.js';

let rig: SitesRig;
const script = 'console.log("a fairly long line of javascript that compresses well");\n'.repeat(20);
beforeAll(async () => {
  rig = await startSitesRig({ gateway: { sites: { spa: ['app'] } } }, { loginAttemptsPerMinute: 6 });
  await rig.write({
    'demo/index.html': '<h1>demo</h1>',
    'demo/docs/index.html': 'docs index',
    'demo/style.css': 'body{}',
    'demo/data.json': '{"a":1}',
    'demo/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'demo/module.wasm': Buffer.from([0, 97, 115, 109]),
    'demo/blob.unknownext': 'x',
    'demo/numbers.txt': '0123456789',
    'demo/app.js': script,
    'demo/app.js.br': brotliCompressSync(script),
    'demo/app.js.gz': gzipSync(script),
    'demo/404.html': '<h1>custom missing</h1>',
    'demo/files/a.txt': 'a',
    'demo/files/<img src=x onerror=alert(1)>.txt': 'x',
    'demo/files/.secret': 'hidden',
    'demo/files/nested/b.txt': 'b',
    'app/index.html': '<div id="root"></div>',
    'app/main.js': 'main()',
    'plain/index.html': 'plain',
  });
});
afterAll(() => rig.close());

describe('the sites server', () => {
  it('serves index.html for a folder, with its content type and safe headers', async () => {
    const reply = await rig.get('demo', '/');
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('<h1>demo</h1>');
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['cache-control']).toBe('no-cache');
    expect((await rig.get('demo', '/docs/')).text).toBe('docs index');
  });

  it('redirects a folder without its slash, keeping the query and never to another host', async () => {
    const reply = await rig.get('demo', '/docs?x=1');
    expect(reply.status).toBe(301);
    expect(reply.headers.location).toBe('/docs/?x=1');
    const doubled = await rig.get('demo', '//docs');
    expect(doubled.status).toBe(301);
    expect(doubled.headers.location).toBe('/docs/');
  });

  it.each([
    ['/style.css', 'text/css; charset=utf-8'],
    ['/data.json', 'application/json; charset=utf-8'],
    ['/logo.svg', 'image/svg+xml'],
    ['/module.wasm', 'application/wasm'],
    ['/blob.unknownext', 'application/octet-stream'],
  ])('content type of %s is %s', async (path, type) => {
    expect((await rig.get('demo', path)).headers['content-type']).toBe(type);
  });

  it('lists a folder without index.html: names escaped, dotfiles left out, a sandbox CSP', async () => {
    const reply = await rig.get('demo', '/files/');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
    expect(reply.text).toContain('<a href="./nested/">nested/</a>');
    expect(reply.text).toContain('<a href="./a.txt">a.txt</a>');
    expect(reply.text).toContain('&lt;img src=x onerror=alert(1)&gt;.txt');
    expect(reply.text).toContain('href="./%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E.txt"');
    expect(reply.text).not.toContain('<img');
    expect(reply.text).not.toContain('.secret');
    expect(reply.text.indexOf('nested/')).toBeLessThan(reply.text.indexOf('a.txt'));
  });

  it('answers a missing file with the site 404.html (status 404), or a plain 404 without one', async () => {
    const custom = await rig.get('demo', '/nope.html');
    expect(custom.status).toBe(404);
    expect(custom.text).toBe('<h1>custom missing</h1>');
    const bare = await rig.get('plain', '/nope');
    expect(bare.status).toBe(404);
    expect(bare.text).toBe('Not found.\n');
  });

  it('SPA fallback (config gateway.sites.spa): route paths get index.html, missing assets stay 404', async () => {
    const route = await rig.get('app', '/users/42');
    expect(route.status).toBe(200);
    expect(route.text).toBe('<div id="root"></div>');
    expect((await rig.get('app', '/main.js')).text).toBe('main()');
    expect((await rig.get('app', '/missing.js')).status).toBe(404);
    expect((await rig.get('plain', '/users/42')).status).toBe(404);
  });

  it('sends the .br or .gz sibling the client accepts, with the original type and Vary', async () => {
    const br = await rig.get('demo', '/app.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.body.equals(brotliCompressSync(script))).toBe(true);
    const gz = await rig.get('demo', '/app.js', { headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.equals(gzipSync(script))).toBe(true);
    const preferred = await rig.get('demo', '/app.js', { headers: { 'accept-encoding': 'br;q=0.5, gzip;q=0.9' } });
    expect(preferred.headers['content-encoding']).toBe('gzip');
    const identity = await rig.get('demo', '/app.js');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.vary).toBe('Accept-Encoding');
    expect(identity.headers['content-type']).toBe(br.headers['content-type']);
    expect(identity.text).toBe(script);
  });

  it('ETag and Last-Modified answer 304 to a fresh conditional request', async () => {
    const first = await rig.get('demo', '/style.css');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers['last-modified']).toBeDefined();
    const byTag = await rig.get('demo', '/style.css', { headers: { 'if-none-match': etag } });
    expect(byTag.status).toBe(304);
    expect(byTag.body.length).toBe(0);
    const byDate = await rig.get('demo', '/style.css', {
      headers: { 'if-modified-since': first.headers['last-modified'] as string },
    });
    expect(byDate.status).toBe(304);
    expect((await rig.get('demo', '/style.css', { headers: { 'if-none-match': 'W/"other"' } })).status).toBe(200);
    const brTag = (await rig.get('demo', '/app.js', { headers: { 'accept-encoding': 'br' } })).headers.etag;
    expect(brTag).not.toBe((await rig.get('demo', '/app.js')).headers.etag);
  });

  it('a failed If-Match precondition is 412, not a 404', async () => {
    const reply = await rig.get('demo', '/numbers.txt', { headers: { 'if-match': '"not-the-tag"' } });
    expect(reply.status).toBe(412);
  });

  it('range requests get 206 with Content-Range, an unsatisfiable one 416', async () => {
    const part = await rig.get('demo', '/numbers.txt', { headers: { range: 'bytes=2-5' } });
    expect(part.status).toBe(206);
    expect(part.text).toBe('2345');
    expect(part.headers['content-range']).toBe('bytes 2-5/10');
    expect(part.headers['accept-ranges']).toBe('bytes');
    const tail = await rig.get('demo', '/numbers.txt', { headers: { range: 'bytes=-3' } });
    expect(tail.text).toBe('789');
    const beyond = await rig.get('demo', '/numbers.txt', { headers: { range: 'bytes=50-60' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe('bytes */10');
  });

  it('HEAD sends headers only; other methods are refused with 405 and Allow', async () => {
    const head = await rig.get('demo', '/numbers.txt', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('10');
    expect(head.body.length).toBe(0);
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const reply = await rig.get('demo', '/', { method });
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe('GET, HEAD');
    }
  });

  it('has no API route: /health, /sessions, /runs and /v1/models are plain file lookups that miss', async () => {
    for (const path of ['/health', '/sessions', '/runs', '/v1/models', '/config']) {
      const reply = await rig.get('plain', path, { headers: { authorization: 'Bearer anything' } });
      expect(reply.status).toBe(404);
      expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
  });

  it('a site folder written after start is served at once (no restart)', async () => {
    expect((await rig.get('fresh', '/')).status).toBe(404);
    await rig.write({ 'fresh/index.html': 'new site' });
    expect((await rig.get('fresh', '/')).text).toBe('new site');
  });

  it('basic auth: 401 with a challenge, wrong logins refused, the right one allowed; changes from elsewhere apply', async () => {
    await rig.write({ 'locked/index.html': 'members only' });
    const sites = workspaceSites(rig.workspace);
    await sites.setAuth('locked', 'alice', 'open sesame');
    const basic = (user: string, password: string) => ({
      authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
    });
    const none = await rig.get('locked', '/');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Basic realm="locked", charset="UTF-8"');
    expect(none.text).not.toContain('members only');
    expect((await rig.get('locked', '/', { headers: basic('alice', 'open sesamE') })).status).toBe(401);
    expect((await rig.get('locked', '/', { headers: basic('bob', 'open sesame') })).status).toBe(401);
    expect((await rig.get('locked', '/', { headers: { authorization: 'Bearer x' } })).status).toBe(401);
    expect((await rig.get('locked', '/', { headers: { authorization: 'Basic !!!' } })).status).toBe(401);
    const allowed = await rig.get('locked', '/', { headers: basic('alice', 'open sesame') });
    expect(allowed.status).toBe(200);
    expect(allowed.text).toBe('members only');
    expect(allowed.headers['cache-control']).toBe('private, no-cache');
    // The listing and the 404 page are behind the login too.
    expect((await rig.get('locked', '/missing')).status).toBe(401);
    // A new password set through another handle (as the CLI does from its own process) replaces the old one.
    await sites.setAuth('locked', 'alice', 'new password');
    expect((await rig.get('locked', '/', { headers: basic('alice', 'open sesame') })).status).toBe(401);
    expect((await rig.get('locked', '/', { headers: basic('alice', 'new password') })).status).toBe(200);
    await sites.clearAuth('locked');
    expect((await rig.get('locked', '/')).status).toBe(200);
    // Other sites never asked for a login.
    expect((await rig.get('plain', '/')).status).toBe(200);
  });

  it('password guessing is limited per client (429 with Retry-After); a remembered good login still passes', async () => {
    await rig.write({ 'guarded/index.html': 'guarded' });
    const sites = workspaceSites(rig.workspace);
    await sites.setAuth('guarded', 'alice', 'right');
    const basic = (password: string) => ({
      authorization: `Basic ${Buffer.from(`alice:${password}`).toString('base64')}`,
    });
    expect((await rig.get('guarded', '/', { headers: basic('right') })).status).toBe(200);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++)
      statuses.push((await rig.get('guarded', '/', { headers: basic(`guess-${attempt}`) })).status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(6);
    const limited = await rig.get('guarded', '/', { headers: basic('guess-again') });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.text).not.toContain('guarded');
    // The header that passed before is known by its digest: no new password check, no limit.
    expect((await rig.get('guarded', '/', { headers: basic('right') })).status).toBe(200);
  });
});
