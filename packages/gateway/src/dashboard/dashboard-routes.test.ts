import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, type RunningGateway, startGateway } from '../gateway.js';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';
import { DASHBOARD_CSP } from './dashboard-routes.js';

const script = { steps: [{ text: 'hi' }] } as never;
const INDEX =
  '<!doctype html><html><head><script type="module" src="/ui/assets/app-Ab12.js"></script></head><body><div id="root"></div></body></html>';
const APP_JS = `console.log(${JSON.stringify('x'.repeat(4000))});`;

let build: string;
let test: TestWorkspace;
let gateway: RunningGateway;
let token: string;

/** A request to the gateway's app (in process) with a Host header the guard accepts. */
async function get(app: Gateway['app'], path: string, headers: Record<string, string> = {}) {
  return app.request(path, { headers: { host: '127.0.0.1', ...headers } });
}

beforeAll(async () => {
  build = await mkdtemp(join(tmpdir(), 'boxagnts-dashboard-build-'));
  await mkdir(join(build, 'assets'));
  await writeFile(join(build, 'index.html'), INDEX);
  await writeFile(join(build, 'assets', 'app-Ab12.js'), APP_JS);
  await writeFile(join(build, 'assets', '.env'), 'SECRET=1');
  await writeFile(join(build, 'secret.txt'), 'not part of the build');
  await writeFile(join(build, '..', 'outside-dashboard.txt'), 'outside');
  test = await createTestWorkspace(script, { gateway: { tokens: { dashboard: { secret: 'dashboard-token' } } } });
  token = 'tok-dashboard-test-0123456789';
  await test.workspace.secrets.set('dashboard-token', token);
  // Tokens required (as on a non-loopback bind): the page and its assets are public, the API is not.
  gateway = await startGateway({
    workspace: test.workspace,
    port: 0,
    sandbox: { bash: false, jsExec: false },
    security: { requireToken: true },
    dashboard: { folder: build },
  });
});

afterAll(async () => {
  await gateway?.close();
  await test?.close();
  await rm(build, { recursive: true, force: true });
  await rm(join(build, '..', 'outside-dashboard.txt'), { force: true });
});

describe('the dashboard routes', () => {
  it('redirects / to /ui/ and answers every page path with the single page under the strict CSP', async () => {
    const root = await get(gateway.app, '/');
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/ui/');
    for (const path of ['/ui/', '/ui/chat', '/ui/sessions/abc', '/ui/deep/path/x.html']) {
      const page = await get(gateway.app, path);
      expect(page.status, path).toBe(200);
      expect(await page.text()).toBe(INDEX);
      expect(page.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect(DASHBOARD_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });

  it('serves hashed assets with a year-long immutable cache, brotli when accepted, 304 on a matching ETag', async () => {
    const plain = await get(gateway.app, '/ui/assets/app-Ab12.js');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await plain.text()).toBe(APP_JS);
    const br = await get(gateway.app, '/ui/assets/app-Ab12.js', { 'accept-encoding': 'gzip, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    const compressed = Buffer.from(await br.arrayBuffer());
    expect(compressed.length).toBeLessThan(APP_JS.length / 4);
    expect(brotliDecompressSync(compressed).toString()).toBe(APP_JS);
    const again = await get(gateway.app, '/ui/assets/app-Ab12.js', {
      'if-none-match': plain.headers.get('etag') ?? '',
    });
    expect(again.status).toBe(304);
  });

  it("never serves a file outside the build's assets (traversal, dotfiles, other files of the folder)", async () => {
    for (const path of [
      '/ui/assets/..%2Fsecret.txt',
      '/ui/assets/..%2f..%2foutside-dashboard.txt',
      '/ui/assets/%2e%2e%2fsecret.txt',
      '/ui/assets/..%5csecret.txt',
      '/ui/assets/.env',
      '/ui/assets/app-Ab12.js%00.txt',
      '/ui/assets/nope.js',
    ]) {
      const response = await get(gateway.app, path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toMatch(/not part of the build|outside|SECRET/);
    }
    for (const path of [
      '/ui/secret.txt',
      '/ui/../secret.txt',
      '/ui/%2e%2e/secret.txt',
      '/ui/index.html/../../secret.txt',
    ]) {
      const response = await get(gateway.app, path);
      expect(await response.text(), path).not.toMatch(/not part of the build|outside/);
    }
  });

  it('needs no token for the page and assets but keeps the Host check, and the API still needs the token', async () => {
    expect((await get(gateway.app, '/ui/chat')).status).toBe(200);
    expect((await get(gateway.app, '/sessions')).status).toBe(401);
    expect((await get(gateway.app, '/sessions', { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await get(gateway.app, '/ui/chat', { host: 'evil.example' })).status).toBe(403);
    const post = await gateway.app.request('/ui/chat', { method: 'POST', headers: { host: '127.0.0.1' } });
    expect(post.status).toBe(401);
  });

  it('says how to build the dashboard when its folder is missing, and serves nothing with dashboard: false', async () => {
    const missing = await startGateway({
      workspace: test.workspace,
      port: 0,
      sandbox: { bash: false, jsExec: false },
      recover: false,
      cron: false,
      dashboard: { folder: join(build, 'no-such-build') },
    });
    try {
      const page = await get(missing.app, '/ui/');
      expect(page.status).toBe(503);
      expect(await page.text()).toMatch(/build:dashboard/);
    } finally {
      await missing.close();
    }
    const none = await startGateway({
      workspace: test.workspace,
      port: 0,
      sandbox: { bash: false, jsExec: false },
      recover: false,
      cron: false,
      dashboard: false,
    });
    try {
      expect((await get(none.app, '/')).status).toBe(404);
      expect((await get(none.app, '/ui/')).status).toBe(404);
    } finally {
      await none.close();
    }
  });
});
