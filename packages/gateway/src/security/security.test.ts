import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createGateway, type RunningGateway, startGateway } from '../gateway.js';
import { isGatewayError } from '../gateway-error.js';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';

let current: TestWorkspace | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await current?.close();
  gateway = undefined;
  current = undefined;
});

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with full control of the headers (fetch does not let a caller set Host). */
function raw(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers ?? {},
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    outgoing.on('error', reject);
    if (options.body !== undefined) outgoing.write(options.body);
    outgoing.end();
  });
}

describe('gateway security', () => {
  it('refuses to start on a non-loopback address without a token, and says how to make one', async () => {
    current = await createTestWorkspace({ steps: [] });
    const error = await createGateway({ workspace: current.workspace, host: '0.0.0.0' }).catch(
      (caught: unknown) => caught,
    );
    expect(isGatewayError(error) && error.reason).toBe('configuration');
    expect((error as Error).message).toContain('token create');
  });

  it('requires a valid bearer token off loopback; tokens are stored hashed, several at once, and revocable', async () => {
    current = await createTestWorkspace({ steps: [] });
    const setup = await createGateway({ workspace: current.workspace });
    const alice = setup.tokens.create('alice');
    const bob = setup.tokens.create('bob');
    await setup.close();
    gateway = await startGateway({ workspace: current.workspace, host: '0.0.0.0', port: 0 });
    const get = (headers: Record<string, string>) =>
      raw(gateway?.url as string, { path: '/sessions', headers: { host: `127.0.0.1:${gateway?.port}`, ...headers } });
    expect((await get({})).status).toBe(401);
    expect((await get({})).headers['www-authenticate']).toBe('Bearer');
    expect((await get({ authorization: `Bearer ${alice}x` })).status).toBe(401);
    expect((await get({ authorization: `Basic ${alice}` })).status).toBe(401);
    expect((await get({ authorization: `Bearer ${'a'.repeat(5000)}` })).status).toBe(401);
    expect((await get({ authorization: `Bearer ${alice}` })).status).toBe(200);
    expect((await get({ authorization: `Bearer ${bob}` })).status).toBe(200);
    expect(gateway.tokens.revoke('alice')).toBe(true);
    expect((await get({ authorization: `Bearer ${alice}` })).status).toBe(401);
    expect((await get({ authorization: `Bearer ${bob}` })).status).toBe(200);
    const database = await readFile(
      current.workspace.config.store.kind === 'sqlite' ? current.workspace.config.store.path : '',
    );
    const wal = await readFile(
      `${current.workspace.config.store.kind === 'sqlite' ? current.workspace.config.store.path : ''}-wal`,
    ).catch(() => Buffer.alloc(0));
    for (const token of [alice, bob]) {
      expect(database.includes(token)).toBe(false);
      expect(wal.includes(token)).toBe(false);
    }
    expect(gateway.tokens.list().map((token) => [token.name, token.revokedAt !== undefined])).toEqual([
      ['alice', true],
      ['bob', false],
    ]);
  });

  it('refuses foreign Host headers (DNS rebinding) and foreign Origins on writes and event streams', async () => {
    current = await createTestWorkspace({ steps: [] });
    gateway = await startGateway({
      workspace: current.workspace,
      port: 0,
      security: { allowedOrigins: ['https://app.example'] },
    });
    const url = gateway.url;
    const host = `127.0.0.1:${gateway.port}`;
    expect((await raw(url, { path: '/sessions', headers: { host: 'evil.example' } })).status).toBe(403);
    expect((await raw(url, { path: '/sessions', headers: { host: `attacker.test:${gateway.port}` } })).status).toBe(
      403,
    );
    expect((await raw(url, { path: '/sessions', headers: { host: `localhost:${gateway.port}` } })).status).toBe(200);
    const write = (origin: string) =>
      raw(url, {
        method: 'POST',
        path: '/sessions',
        headers: { host, origin, 'content-type': 'application/json' },
        body: '{}',
      });
    expect((await write('http://evil.example')).status).toBe(403);
    expect((await write(`http://${host}.evil.example`)).status).toBe(403);
    expect((await write('null')).status).toBe(403);
    expect((await write('https://app.example')).status).toBe(201);
    expect((await write(`http://${host}`)).status).toBe(201);
    const stream = await raw(url, { path: '/runs/any/events', headers: { host, origin: 'http://evil.example' } });
    expect(stream.status).toBe(403);
  });

  it('limits request size and rate per client, with typed errors', async () => {
    current = await createTestWorkspace({ steps: [] });
    gateway = await startGateway({
      workspace: current.workspace,
      port: 0,
      security: { maxBodyBytes: 2048, requestsPerMinute: 5 },
    });
    const big = await fetch(`${gateway.url}/sessions`, {
      method: 'POST',
      body: JSON.stringify({ title: 'x'.repeat(5000) }),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { reason: string } }).error.reason).toBe('payload-too-large');
    const chunked = await fetch(`${gateway.url}/sessions`, {
      method: 'POST',
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(JSON.stringify({ title: 'y'.repeat(5000) })));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const statuses: number[] = [];
    for (let index = 0; index < 5; index++) statuses.push((await fetch(`${gateway.url}/health`)).status);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    const limited = await fetch(`${gateway.url}/health`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('accepts the tokens of the config (gateway.tokens key references) and no other', async () => {
    current = await createTestWorkspace({ steps: [] }, { gateway: { tokens: { ci: { secret: 'ci-token' } } } });
    const value = 'bxg_configured_token_value_0123456789';
    await current.workspace.secrets.set('ci-token', value);
    gateway = await startGateway({ workspace: current.workspace, host: '0.0.0.0', port: 0 });
    const get = (authorization?: string) =>
      raw(gateway?.url as string, {
        path: '/agents',
        headers: { host: `127.0.0.1:${gateway?.port}`, ...(authorization === undefined ? {} : { authorization }) },
      });
    expect((await get(`Bearer ${value}`)).status).toBe(200);
    expect((await get(`Bearer ${value.slice(0, -1)}`)).status).toBe(401);
    expect((await get()).status).toBe(401);
    expect(gateway.tokens.revoke('ci')).toBe(false);
  });
});
