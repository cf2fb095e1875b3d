import { readFile, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../gateway.js';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';

let current: TestWorkspace | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await current?.close();
  gateway = undefined;
  current = undefined;
});

async function start(config: Record<string, unknown> = {}): Promise<RunningGateway> {
  current = await createTestWorkspace({ steps: [{ text: 'ok' }] }, config);
  gateway = await startGateway({ workspace: current.workspace, port: 0, sandbox: { bash: false, jsExec: false } });
  return gateway;
}

const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** GET on a listener with an explicit Host header (fetch cannot set one). */
function getWithHost(port: number, host: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, path, setHost: false, headers: { host, ...headers } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text, headers: response.headers }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('sites over the API', () => {
  it('create, list, get, set and clear a login, delete; the site is served on its own listener meanwhile', async () => {
    const running = await start();
    const sitesPort = running.sitesListener?.port as number;
    expect(sitesPort).toBeGreaterThan(0);
    expect(sitesPort).not.toBe(running.port);
    const created = await fetch(`${running.url}/sites`, json('POST', { name: 'docs' }));
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({
      name: 'docs',
      host: 'docs.localhost',
      url: `http://docs.localhost:${sitesPort}/`,
      folder: join('root', 'sites', 'docs'),
      auth: null,
      spa: false,
    });
    const folder = join(current?.workspace.paths.root as string, 'sites', 'docs');
    expect((await stat(folder)).isDirectory()).toBe(true);
    expect((await getWithHost(sitesPort, `docs.localhost:${sitesPort}`, '/')).status).toBe(200);

    const listed = (await (await fetch(`${running.url}/sites`)).json()) as { sites: { name: string }[] };
    expect(listed.sites.map((site) => site.name)).toEqual(['docs']);
    expect((await fetch(`${running.url}/sites/docs`)).status).toBe(200);

    const auth = await fetch(
      `${running.url}/sites/docs/auth`,
      json('PUT', { user: 'alice', password: 'hunter2-long' }),
    );
    const authText = await auth.text();
    expect(auth.status).toBe(200);
    expect(JSON.parse(authText).auth).toEqual({ user: 'alice' });
    expect(authText).not.toContain('hunter2');
    expect(await readFile(current?.workspace.secrets.file as string, 'utf8')).not.toContain('hunter2');
    expect((await getWithHost(sitesPort, `docs.localhost:${sitesPort}`, '/')).status).toBe(401);
    const basic = `Basic ${Buffer.from('alice:hunter2-long').toString('base64')}`;
    expect((await getWithHost(sitesPort, `docs.localhost:${sitesPort}`, '/', { authorization: basic })).status).toBe(
      200,
    );
    expect((await fetch(`${running.url}/sites/docs/auth`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(`${running.url}/sites/docs/auth`, { method: 'DELETE' })).status).toBe(404);
    expect((await getWithHost(sitesPort, `docs.localhost:${sitesPort}`, '/')).status).toBe(200);

    expect((await fetch(`${running.url}/sites/docs`, { method: 'DELETE' })).status).toBe(204);
    await expect(stat(folder)).rejects.toThrow(/ENOENT/);
    expect((await fetch(`${running.url}/sites/docs`)).status).toBe(404);
    expect((await getWithHost(sitesPort, `docs.localhost:${sitesPort}`, '/')).status).toBe(404);
  });

  it('bad input gets a typed error saying what to change', async () => {
    const running = await start();
    const bad = await fetch(`${running.url}/sites`, json('POST', { name: '../etc' }));
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { reason: string; message: string } };
    expect(body.error.reason).toBe('invalid-request');
    expect(body.error.message).toMatch(/not a site name: use 1-63 lowercase letters/);
    expect((await fetch(`${running.url}/sites`, json('POST', { name: 'a', extra: 1 }))).status).toBe(400);
    expect((await fetch(`${running.url}/sites`, json('POST', { name: 'twice' }))).status).toBe(201);
    const again = await fetch(`${running.url}/sites`, json('POST', { name: 'twice' }));
    expect(again.status).toBe(409);
    expect((await fetch(`${running.url}/sites/nothing`, { method: 'DELETE' })).status).toBe(404);
    expect((await fetch(`${running.url}/sites/nothing/auth`, json('PUT', { user: 'u', password: 'p' }))).status).toBe(
      404,
    );
    const colon = await fetch(`${running.url}/sites/twice/auth`, json('PUT', { user: 'a:b', password: 'p' }));
    expect(colon.status).toBe(400);
  });

  it('spa on create goes into gateway.sites.spa; keepFiles keeps the folder', async () => {
    const running = await start();
    expect(
      (
        (await (await fetch(`${running.url}/sites`, json('POST', { name: 'app', spa: true }))).json()) as {
          spa: boolean;
        }
      ).spa,
    ).toBe(true);
    expect(current?.workspace.config.gateway.sites.spa).toEqual(['app']);
    expect((await fetch(`${running.url}/sites/app?keepFiles=true`, { method: 'DELETE' })).status).toBe(204);
    expect((await stat(join(current?.workspace.paths.root as string, 'sites', 'app'))).isDirectory()).toBe(true);
    expect(current?.workspace.config.gateway.sites.spa).toEqual([]);
  });
});

describe('the sites origin is not the API origin', () => {
  it('the API refuses state-changing requests and event streams from a page on the sites origin', async () => {
    const running = await start();
    const sitesPort = running.sitesListener?.port as number;
    const siteOrigin = `http://demo.localhost:${sitesPort}`;
    for (const [path, body] of [
      ['/sessions', {}],
      ['/sessions/s1/runs', { input: 'hi' }],
      ['/sites', { name: 'planted' }],
    ] as const) {
      const response = await fetch(`${running.url}${path}`, json('POST', body, { origin: siteOrigin }));
      expect(response.status).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect(
      (await fetch(`${running.url}/sites/x/auth`, json('PUT', { user: 'u', password: 'p' }, { origin: siteOrigin })))
        .status,
    ).toBe(403);
    expect((await fetch(`${running.url}/runs/r1/events`, { headers: { origin: siteOrigin } })).status).toBe(403);
    // A read is answered but without CORS headers, so the page's script cannot read it; a preflight gets no grant.
    const read = await fetch(`${running.url}/sessions`, { headers: { origin: siteOrigin } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${running.url}/sessions`, {
      method: 'OPTIONS',
      headers: { origin: siteOrigin, 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
    expect(current?.workspace.config.gateway.sites.spa).toEqual([]);
    expect((await (await fetch(`${running.url}/sites`)).json()) as unknown).toEqual({ sites: [] });
  });

  it('the API does not answer a site host name (rebinding), and the sites listener has no API route', async () => {
    const running = await start();
    const sitesPort = running.sitesListener?.port as number;
    const rebound = await getWithHost(running.port, `demo.localhost:${running.port}`, '/sessions');
    expect(rebound.status).toBe(403);
    for (const path of ['/sessions', '/sites', '/health', '/v1/models', '/runs', '/config']) {
      for (const host of [`127.0.0.1:${sitesPort}`, `localhost:${sitesPort}`, `demo.localhost:${sitesPort}`]) {
        const reply = await getWithHost(sitesPort, host, path);
        expect(reply.status).toBe(404);
        expect(reply.text).not.toMatch(/"sessions"|"sites"|"ok"|"data"/);
      }
    }
  });

  it('gateway.sites.enabled false starts no sites listener', async () => {
    const running = await start({ gateway: { sites: { enabled: false } } });
    expect(running.sitesListener).toBeUndefined();
  });
});
