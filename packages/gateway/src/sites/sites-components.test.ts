// Sites served by an HTTP component (config gateway.sites.components) through the sites origin, with
// BoxAgnts' own static site component. Needs BoxAgnts' prebuilt component: the tests that run it are
// skipped where ../shared/fixtures/boxagnts is absent (the crash test also where there is no /proc); the config checks run everywhere.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isConfigError, openWorkspace, workspaceSites } from '@boxagnts/workspace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, startGateway } from '../gateway.js';
import { isGatewayError } from '../gateway-error.js';
import { type SiteReply, type SitesRig, startSitesRig } from './sites.test-support.js';

const SITE_COMPONENT = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../../../../shared/fixtures/boxagnts/services/boxed_static_server_component.wasm',
);
const HAVE_SITE_COMPONENT = existsSync(SITE_COMPONENT);

describe('gateway.sites.components config', () => {
  it('refuses a literal credential in the component config, naming the key reference to write', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'boxagnts-compsite-'));
    try {
      await writeFile(
        join(dir, 'boxagnts.json'),
        JSON.stringify({
          gateway: {
            sites: { components: { demo: { component: 'tools/s.wasm', config: { password: 'hunter2' } } } },
          },
        }),
      );
      const error = await openWorkspace(dir).catch((caught: unknown) => caught);
      expect(isConfigError(error)).toBe(true);
      expect(String((error as Error).message)).toContain('{ "secret": "<name>" }');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a component outside the workspace tools/ and sites/ folders', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'boxagnts-compsite-'));
    try {
      await writeFile(
        join(dir, 'boxagnts.json'),
        JSON.stringify({ gateway: { sites: { components: { demo: { component: 'root/sites/demo/s.wasm' } } } } }),
      );
      const error = await createGateway({ workspace: dir }).catch((caught: unknown) => caught);
      expect(isGatewayError(error)).toBe(true);
      expect((error as Error).message).toContain("must be a file under the workspace's tools/ or sites/ folder");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!HAVE_SITE_COMPONENT)(
  "a site served by BoxAgnts' static site component (skipped where ../shared/fixtures/boxagnts is absent)",
  () => {
    let rig: SitesRig;
    const logs: Record<string, unknown>[] = [];
    let outside: string;

    beforeAll(async () => {
      rig = await startSitesRig(
        {
          gateway: {
            sites: {
              components: {
                demo: { component: 'tools/static.wasm', config: { cache_control: 'max-age=60' } },
                crashy: { component: 'tools/static.wasm', timeoutMs: 2500 },
                capped: { component: 'tools/static.wasm', maxResponseBytes: 1000 },
                nokey: { component: 'tools/static.wasm', config: { password: { secret: 'never-stored' } } },
                // BoxAgnts' own login, its password from the secrets file (never literal in the config).
                keyed: {
                  component: 'tools/static.wasm',
                  config: { username: 'grace', password: { secret: 'keyed-site-password' } },
                },
              },
            },
          },
        },
        { log: (entry) => logs.push(entry) },
      );
      // The component is read from the workspace's tools/ folder (a temporary copy, not a link: a
      // link leading out of tools/ is refused).
      await mkdir(join(rig.dir, 'tools'), { recursive: true });
      await copyFile(SITE_COMPONENT, join(rig.dir, 'tools', 'static.wasm'));
      outside = await mkdtemp(join(tmpdir(), 'boxagnts-compsite-outside-'));
      await writeFile(join(outside, 'secret.txt'), 'outside the site');
      await rig.write({
        'demo/index.html': '<h1>Hello «component»</h1>',
        'demo/css/style.css': 'body { color: red }',
        'demo/.env': 'TOKEN=sk-dotfile',
        'crashy/index.html': 'small page',
        'keyed/index.html': 'keyed page',
        'nokey/index.html': 'never served',
        'capped/index.html': 'x'.repeat(5000),
      });
      await rig.workspace.secrets.set('keyed-site-password', 'hopper');
      await symlink(join(outside, 'secret.txt'), join(rig.folder, 'demo', 'link.txt'));
      await symlink(outside, join(rig.folder, 'demo', 'out'));
    }, 60_000);

    afterAll(async () => {
      await rig?.close();
      if (outside !== undefined) await rm(outside, { recursive: true, force: true });
    });

    it('serves a page of the site folder through the sites origin, by Host', async () => {
      const page = await rig.get('demo', '/index.html');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.text).toBe('<h1>Hello «component»</h1>');
      // The gateway's own headers are kept on the component's answers.
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      const css = await rig.get('demo', '/css/style.css');
      expect(css.headers['content-type']).toContain('text/css');
      expect(css.text).toBe('body { color: red }');
      expect((await rig.get('demo', '/missing.html')).status).toBe(404);
      // Another Host is another site: the static handler, or nothing.
      expect((await rig.get('nosuch', '/index.html')).status).toBe(404);
    }, 60_000);

    it('refuses traversal, dotfiles and links out of the site, through the component too', async () => {
      for (const path of [
        '/../../etc/passwd',
        '/%2e%2e/%2e%2e/etc/passwd',
        '/css/..%2f..%2fetc%2fpasswd',
        '/%c0%ae%c0%ae/etc/passwd',
        '/.env',
        '/%2eenv',
        '/..\\..\\etc\\passwd',
      ]) {
        const reply = await rig.get('demo', path);
        expect([400, 404], path).toContain(reply.status);
        expect(reply.text, path).not.toContain('root:');
        expect(reply.text, path).not.toContain('sk-dotfile');
      }
      // Links inside the site that lead out are refused by the component's read-only root.
      for (const path of ['/link.txt', '/out/secret.txt']) {
        const reply = await rig.get('demo', path);
        expect(reply.status, path).not.toBe(200);
        expect(reply.text, path).not.toContain('outside the site');
      }
      // The component's root is read-only and it is asked only with the site rules' methods.
      expect((await rig.get('demo', '/index.html', { method: 'TRACE' })).status).toBe(405);
    }, 60_000);

    it('asks for the same basic-auth login as a static site before the component is reached', async () => {
      const sites = workspaceSites(rig.workspace);
      await sites.setAuth('demo', 'ada', 'lovelace');
      try {
        expect((await rig.get('demo', '/index.html')).status).toBe(401);
        const allowed = await rig.get('demo', '/index.html', {
          headers: { authorization: `Basic ${Buffer.from('ada:lovelace').toString('base64')}` },
        });
        expect(allowed.status).toBe(200);
        expect(allowed.text).toBe('<h1>Hello «component»</h1>');
      } finally {
        await sites.clearAuth('demo');
      }
    }, 60_000);

    it('hands the component its wasi:config, credentials resolved from the secrets file', async () => {
      expect((await rig.get('keyed', '/index.html')).status).toBe(401);
      const wrong = await rig.get('keyed', '/index.html', {
        headers: { authorization: `Basic ${Buffer.from('grace:nope').toString('base64')}` },
      });
      expect(wrong.status).toBe(401);
      const right = await rig.get('keyed', '/index.html', {
        headers: { authorization: `Basic ${Buffer.from('grace:hopper').toString('base64')}` },
      });
      expect(right.status).toBe(200);
      expect(right.text).toBe('keyed page');
    }, 60_000);

    it('answers 502 when the component cannot start (a missing secret), and says why in the log', async () => {
      const reply = await rig.get('nokey', '/index.html');
      expect(reply.status).toBe(502);
      expect(reply.text).toBe('The component of site "nokey" failed to start.\n');
      const entry = logs.find((logged) => logged.site === 'nokey');
      expect(String(entry?.error)).toContain('never-stored');
      expect(reply.text).not.toContain('never served');
    }, 60_000);

    it('bounds request bodies (413, declared or chunked) and response bodies (cut at the limit)', async () => {
      const big = await rig.raw(
        `POST /index.html HTTP/1.1\r\nHost: demo.localhost:${rig.port}\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n`,
      );
      expect(big).toMatch(/^HTTP\/1\.1 413 /);
      const chunk = 'a'.repeat(512 * 1024);
      const chunked = await rig.raw(
        `POST /index.html HTTP/1.1\r\nHost: demo.localhost:${rig.port}\r\nTransfer-Encoding: chunked\r\n\r\n${`${(512 * 1024).toString(16)}\r\n${chunk}\r\n`.repeat(3)}0\r\n\r\n`,
      );
      expect(chunked).toMatch(/^HTTP\/1\.1 413 /);
      // A body over maxResponseBytes (1,000 bytes here): 502 when the component declares its length,
      // else the connection is cut once the limit is passed; never the whole 5,000 bytes.
      const capped: SiteReply | Error = await rig
        .get('capped', '/index.html')
        .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      if (capped instanceof Error) expect(capped.message).toMatch(/socket hang up|aborted|ECONNRESET/);
      else {
        expect(capped.status).toBe(502);
        expect(capped.text).not.toContain('xxxx');
      }
    }, 60_000);

    it.skipIf(!existsSync('/proc/self/stat'))(
      'answers a hung component with 504 in its timeout, a dead one is restarted; the gateway stays up (skipped without /proc)',
      async () => {
        const before = componentProcesses();
        expect((await rig.get('crashy', '/index.html')).text).toBe('small page');
        const [pid] = componentProcesses().filter((id) => !before.includes(id));
        expect(pid).toBeDefined();
        // A hang: the component's process stops answering (SIGSTOP). The request ends with 504 after
        // the site's timeoutMs (2.5 s), never hangs, and the stuck process is replaced.
        process.kill(pid as number, 'SIGSTOP');
        const hung = await rig.get('crashy', '/index.html');
        expect(hung.status).toBe(504);
        expect(hung.text).toContain('did not answer in time');
        expect(logs.some((entry) => entry.site === 'crashy' && entry.message === 'site component timed out')).toBe(
          true,
        );
        const again = await rig.get('crashy', '/index.html');
        expect(again.status).toBe(200);
        expect(again.text).toBe('small page');
        // A crash between requests: the next GET is answered by a fresh process.
        const [second] = componentProcesses().filter((id) => !before.includes(id) && id !== pid);
        expect(second).toBeDefined();
        process.kill(second as number, 'SIGKILL');
        await waitUntilGone(second as number);
        const restarted = await rig.get('crashy', '/index.html');
        expect(restarted.status).toBe(200);
        expect(restarted.text).toBe('small page');
        // A crash during a request that is not replayed (a POST): 502, and the next request is served.
        const [third] = componentProcesses().filter((id) => !before.includes(id) && id !== pid && id !== second);
        expect(third).toBeDefined();
        process.kill(third as number, 'SIGSTOP');
        const during = rig.get('crashy', '/index.html', { method: 'POST' });
        await new Promise((resolve) => setTimeout(resolve, 1000));
        process.kill(third as number, 'SIGKILL');
        const crashed = await during;
        expect(crashed.status).toBe(502);
        expect(crashed.text).toContain('The component of site "crashy" failed on this request');
        expect(logs.some((entry) => entry.site === 'crashy' && entry.message === 'site component crashed')).toBe(true);
        expect((await rig.get('crashy', '/index.html')).text).toBe('small page');
        // Other sites never noticed.
        expect((await rig.get('demo', '/index.html')).status).toBe(200);
      },
      60_000,
    );
  },
);

describe.skipIf(!HAVE_SITE_COMPONENT || !existsSync('/proc/self/stat'))(
  'a component site in a running gateway (skipped without ../shared/fixtures/boxagnts or /proc)',
  () => {
    it('is served on the sites listener and its process ends when the gateway closes', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'boxagnts-compsite-gw-'));
      try {
        await writeFile(
          join(dir, 'boxagnts.json'),
          JSON.stringify({ gateway: { sites: { components: { demo: { component: 'tools/static.wasm' } } } } }),
        );
        await mkdir(join(dir, 'tools'), { recursive: true });
        await copyFile(SITE_COMPONENT, join(dir, 'tools', 'static.wasm'));
        await mkdir(join(dir, 'root', 'sites', 'demo'), { recursive: true });
        await writeFile(join(dir, 'root', 'sites', 'demo', 'index.html'), 'through the gateway');
        const before = componentProcesses();
        const gateway = await startGateway({ workspace: dir, port: 0, cron: false });
        let closed = false;
        try {
          const port = gateway.sitesListener?.port as number;
          const reply = await new Promise<{ status: number; text: string }>((resolve, reject) => {
            const outgoing = httpRequest(
              { host: '127.0.0.1', port, path: '/', setHost: false, headers: { host: `demo.localhost:${port}` } },
              (response) => {
                let text = '';
                response.on('data', (chunk: Buffer) => {
                  text += chunk.toString();
                });
                response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
              },
            );
            outgoing.on('error', reject);
            outgoing.end();
          });
          expect(reply).toEqual({ status: 200, text: 'through the gateway' });
          // The site is not on the API's origin.
          expect((await fetch(`${gateway.url}/index.html`)).status).not.toBe(200);
          const started = componentProcesses().filter((id) => !before.includes(id));
          expect(started).toHaveLength(1);
          await gateway.close();
          closed = true;
          await waitUntilGone(started[0] as number);
          expect(componentProcesses()).not.toContain(started[0]);
        } finally {
          if (!closed) await gateway.close();
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }, 60_000);
  },
);

/** The ids of this process's HTTP component children (forked worker-http.mjs). */
function componentProcesses(): number[] {
  const ids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      if (parent !== process.pid || state === 'Z') continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('worker-http.mjs')) ids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return ids;
}

async function waitUntilGone(pid: number): Promise<void> {
  for (let tries = 0; tries < 200 && componentProcesses().includes(pid); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
