import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../spec/stream-event.js';
import { helloRequest } from '../provider-row.test.helpers.js';
import { createProviderRegistry } from '../registry.js';
import { CODEX_OAUTH_CLIENT_ID } from './openai-codex-provider.js';

const NOW_MS = Date.UTC(2026, 11, 1, 12, 0, 0);
const NOW_S = NOW_MS / 1000;
let dir: string;
let mock: MockServer;
let tokenServer: Server | undefined;
let tokenRequests: Array<Record<string, unknown>>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'codex-'));
  await mkdir(join(dir, '.boxagnts'));
  mock = await startMockServer({ script: { steps: [{ text: 'Hi from Codex.' }], repeatLast: true } });
  tokenRequests = [];
});
afterEach(async () => {
  await mock.close();
  await new Promise<void>((resolve) => (tokenServer === undefined ? resolve() : tokenServer.close(() => resolve())));
  tokenServer = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** OpenAI's OAuth token endpoint, mocked on loopback. */
async function startTokenServer(
  answer: (body: Record<string, unknown>) => { status: number; body: unknown; headers?: Record<string, string> },
) {
  tokenServer = createServer((request: IncomingMessage, response: ServerResponse) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      tokenRequests.push(body);
      const reply = answer(body);
      // A little delay so concurrent requests overlap while a refresh is in flight.
      setTimeout(() => {
        response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        response.end(JSON.stringify(reply.body));
      }, 30);
    });
  });
  await new Promise<void>((resolve) => tokenServer?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/oauth/token`;
}

async function writeTokens(tokens: unknown) {
  await writeFile(join(dir, '.boxagnts', 'codex_tokens.json'), JSON.stringify(tokens));
}

function codex(tokenURL?: string) {
  const registry = createProviderRegistry({
    env: {},
    providerOptions: {
      codex: {
        baseURL: `${mock.url}/backend-api/codex`,
        parameters: { boxagntsDir: join(dir, '.boxagnts') },
        retry: { maxRetries: 0 },
        settings: { now: () => NOW_MS, ...(tokenURL === undefined ? {} : { tokenURL }) },
      },
    },
  });
  return { registry, provider: registry.getProvider('openai-codex') };
}

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('codex row (BoxAgnts codex_tokens.json)', () => {
  it('streams from the Responses API with the stored token and account id', async () => {
    await writeTokens({
      access_token: 'access-valid-1111',
      refresh_token: 'refresh-r-2222',
      account_id: 'acct-9',
      expires_at: NOW_S + 3600,
    });
    const { registry, provider } = codex();
    const events = await collect(provider.streamMessage(helloRequest('gpt-5.2-codex')));
    expect(events.at(-1)?.type).toBe('message-end');
    const request = mock.requests[0];
    expect(request?.path).toBe('/backend-api/codex/responses');
    expect(request?.headers.authorization).toBe('Bearer ***1111');
    expect(request?.headers['chatgpt-account-id']).toBe('acct-9');
    expect((request?.body as { store?: boolean } | undefined)?.store).toBe(false);
    expect(registry.list().find((entry) => entry.id === 'codex')?.credentialSource).toBe('file');
    expect((await provider.listModels()).map((model) => model.id)).toContain('gpt-5.2-codex');
  });

  it('refreshes an expired token once for concurrent requests and writes it back in BoxAgnts format', async () => {
    await writeTokens({
      access_token: 'access-old-0000',
      refresh_token: 'refresh-old-3333',
      account_id: 'acct-9',
      expires_at: NOW_S + 30,
    });
    const tokenURL = await startTokenServer(() => ({
      status: 200,
      body: { access_token: 'access-new-4444', refresh_token: 'refresh-new-5555', expires_in: 7200 },
    }));
    const { provider } = codex(tokenURL);
    const [first, second] = await Promise.all([
      collect(provider.streamMessage(helloRequest('gpt-5.2-codex'))),
      collect(provider.streamMessage(helloRequest('gpt-5.2-codex'))),
    ]);
    expect([first.at(-1)?.type, second.at(-1)?.type]).toEqual(['message-end', 'message-end']);
    expect(tokenRequests).toEqual([
      { grant_type: 'refresh_token', client_id: CODEX_OAUTH_CLIENT_ID, refresh_token: 'refresh-old-3333' },
    ]);
    expect(mock.requests.map((request) => request.headers.authorization)).toEqual(['Bearer ***4444', 'Bearer ***4444']);
    const path = join(dir, '.boxagnts', 'codex_tokens.json');
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      access_token: 'access-new-4444',
      refresh_token: 'refresh-new-5555',
      account_id: 'acct-9',
      expires_at: NOW_S + 7200,
    });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('a refused refresh is an auth error that says to log in again and leaks no token', async () => {
    await writeTokens({
      access_token: 'access-old-0000',
      refresh_token: 'refresh-secret-7777',
      expires_at: NOW_S - 10,
    });
    const tokenURL = await startTokenServer(() => ({
      status: 401,
      body: { error: 'invalid_grant', refresh_token: 'refresh-secret-7777' },
    }));
    const events = await collect(codex(tokenURL).provider.streamMessage(helloRequest('gpt-5.2-codex')));
    const last = events.at(-1);
    if (last?.type !== 'error') throw new Error('expected an error');
    expect(last.error.reason).toBe('auth');
    expect(last.error.message).toMatch(/log in to Codex again/);
    expect(JSON.stringify({ message: last.error.message, body: last.error.body })).not.toContain('refresh-secret-7777');
    expect(mock.requests).toHaveLength(0);
  });

  it('never follows a refresh redirect to another origin (the refresh token would go with it)', async () => {
    await writeTokens({ access_token: 'access-old-0000', refresh_token: 'refresh-r-8888', expires_at: NOW_S - 10 });
    const tokenURL = await startTokenServer(() => ({
      status: 307,
      body: {},
      headers: { location: 'http://localhost:9/steal' },
    }));
    const events = await collect(codex(tokenURL).provider.streamMessage(helloRequest('gpt-5.2-codex')));
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    expect(last?.type === 'error' ? last.error.message : '').toMatch(/redirect/i);
    expect(tokenRequests).toHaveLength(1);
  });

  it('without a login it says where BoxAgnts keeps one; a broken file is named', async () => {
    const missing = await collect(codex().provider.streamMessage(helloRequest('gpt-5.2-codex')));
    expect(missing.at(-1)?.type === 'error' ? (missing.at(-1) as { error: Error }).error.message : '').toMatch(
      /codex_tokens\.json/,
    );
    await writeFile(join(dir, '.boxagnts', 'codex_tokens.json'), '{"access_token": 5}');
    const broken = await collect(codex().provider.streamMessage(helloRequest('gpt-5.2-codex')));
    expect(broken.at(-1)?.type === 'error' ? (broken.at(-1) as { error: Error }).error.message : '').toMatch(
      /cannot be used/,
    );
    expect(mock.requests).toHaveLength(0);
  });
});
