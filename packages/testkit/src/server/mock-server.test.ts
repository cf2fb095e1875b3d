import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MockScriptError } from '../script/schema.js';
import type { MockScript } from '../script/types.js';
import { FAULT_HEADER, type MockServer, startMockServer } from './mock-server.js';

const servers: MockServer[] = [];

async function start(script?: MockScript, models?: string[]): Promise<MockServer> {
  const server = await startMockServer({ ...(script ? { script } : {}), ...(models ? { models } : {}) });
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function anthropic(server: MockServer, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test-0123456789', ...headers },
    body: JSON.stringify({
      model: 'claude-test',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
      ...body,
    }),
  });
}

function chat(server: MockServer, body: Record<string, unknown>) {
  return fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-openai-test-abcdef' },
    body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], ...body }),
  });
}

describe('startMockServer', () => {
  it('listens on loopback with a free port', async () => {
    const server = await start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.port).toBeGreaterThan(0);
  });

  it('refuses an invalid script with an error naming the field', async () => {
    await expect(startMockServer({ script: { steps: [{ stopReason: 'done' }] } as never })).rejects.toThrow(
      MockScriptError,
    );
    const server = await start();
    expect(() => server.setScript({ steps: [{ fault: { kind: 'reset' } }] } as never)).toThrow(/afterBytes/);
    expect(() => server.enqueue({ content: [{ type: 'image' }] } as never)).toThrow(MockScriptError);
  });
});

describe('bad requests get a clear error, never a hang', () => {
  it('answers an unknown route with 404 and the list of routes', async () => {
    const server = await start();
    const response = await fetch(`${server.url}/v1/nothing-here`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('no route for POST /v1/nothing-here');
    expect(body.error.message).toContain('/v1/messages');
  });

  it('answers a body that is not JSON with 400 in the vendor shape', async () => {
    const server = await start({ steps: [{ text: 'never served' }] });
    const response = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{"model": ' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('not valid JSON');
    expect(server.remaining).toBe(1);
  });

  it('says so when the script has no step left', async () => {
    const server = await start({ steps: [{ text: 'only one' }] });
    expect((await chat(server, {})).status).toBe(200);
    const response = await chat(server, {});
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('no step left for request #2');
  });

  it('rejects an invalid fault header with 400 and the problem', async () => {
    const server = await start({ steps: [{ text: 'x' }] });
    const response = await anthropic(server, {}, { [FAULT_HEADER]: '{"kind":"reset"}' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('afterBytes');
  });

  it('rejects a body over the size limit with 413', async () => {
    const server = await startMockServer({ maxBodyBytes: 1024, script: { steps: [{ text: 'x' }] } });
    servers.push(server);
    const response = await anthropic(server, { padding: 'x'.repeat(4096) });
    expect(response.status).toBe(413);
  });

  it('explains a replay that does not fit the request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mock-replay-'));
    const file = join(dir, 'stream.chunks.txt');
    writeFileSync(file, '{"type":"message_start","message":{"id":"msg_1"}}\n');
    const server = await start({ steps: [{ replay: file }, { replay: join(dir, 'missing.json') }] });
    const wrongProtocol = await chat(server, { stream: true });
    expect(wrongProtocol.status).toBe(400);
    expect(((await wrongProtocol.json()) as { error: { message: string } }).error.message).toContain(
      'is anthropic but the request came in as openai-chat',
    );
    const missing = await chat(server, {});
    expect(missing.status).toBe(500);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain('Cannot read replay');
  });
});

describe('recording', () => {
  it('records method, path, parsed body, model, stream flag and masked credentials', async () => {
    const server = await start({ steps: [{ text: 'hello' }] });
    await anthropic(server, { stream: false });
    const [request] = server.requests;
    expect(request).toMatchObject({
      index: 1,
      method: 'POST',
      path: '/v1/messages',
      protocol: 'anthropic',
      model: 'claude-test',
      stream: false,
      servedBy: 'default',
    });
    expect(request?.headers['x-api-key']).toBe('***6789');
    expect(JSON.stringify(server.requests)).not.toContain('sk-ant-test-0123456789');
    expect(request?.body).toMatchObject({ max_tokens: 64 });
    server.clearRequests();
    expect(server.requests).toHaveLength(0);
  });
});

describe('routing', () => {
  it('routes by model (exact and /regex/), by content and by protocol, then falls back to the default queue', async () => {
    const server = await start({
      rules: [
        { match: { model: 'gpt-exact' }, steps: [{ text: 'exact' }] },
        { match: { model: '/^claude-.*-fast$/' }, steps: [{ text: 'pattern' }], repeatLast: true },
        { match: { contains: 'magic-word' }, steps: [{ text: 'content' }] },
      ],
      steps: [{ text: 'default' }],
    });
    const text = async (response: Response) => JSON.stringify(await response.json());
    expect(await text(await chat(server, { model: 'gpt-exact' }))).toContain('exact');
    expect(await text(await anthropic(server, { model: 'claude-x-fast' }))).toContain('pattern');
    expect(await text(await anthropic(server, { model: 'claude-y-fast' }))).toContain('pattern');
    expect(await text(await chat(server, { messages: [{ role: 'user', content: 'the magic-word' }] }))).toContain(
      'content',
    );
    expect(await text(await chat(server, { model: 'gpt-exact' }))).toContain('default');
    expect(server.requests.map((request) => request.servedBy)).toEqual([
      'rule:0',
      'rule:1',
      'rule:1',
      'rule:2',
      'default',
    ]);
  });
});

describe('injected faults', () => {
  it('fails the next request and leaves its step for the retry', async () => {
    const server = await start({ steps: [{ text: 'after the retry' }] });
    server.injectFault({ kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 3 });
    const first = await chat(server, {});
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('3');
    const second = await chat(server, {});
    expect(second.status).toBe(200);
    expect(JSON.stringify(await second.json())).toContain('after the retry');
    expect(server.remaining).toBe(0);
  });

  it('applies a fault given in the request header to that request only', async () => {
    const server = await start({ steps: [{ text: 'fine' }] });
    const faulted = await anthropic(server, {}, { [FAULT_HEADER]: '{"kind":"http_error","error":"overloaded"}' });
    expect(faulted.status).toBe(529);
    expect((await anthropic(server, {})).status).toBe(200);
  });

  it('only hits requests that meet its match, as many times as asked', async () => {
    const server = await start({ steps: [{ text: 'a' }], repeatLast: true });
    server.injectFault({ kind: 'http_error', error: 'server' }, { match: { protocol: 'anthropic' }, times: 2 });
    expect((await chat(server, {})).status).toBe(200);
    expect((await anthropic(server, {})).status).toBe(500);
    expect((await anthropic(server, {})).status).toBe(500);
    expect((await anthropic(server, {})).status).toBe(200);
  });
});

describe('model lists', () => {
  it('answers in the shape each client expects', async () => {
    const server = await start(undefined, ['model-a', 'model-b']);
    const openai = (await (await fetch(`${server.url}/v1/models`)).json()) as {
      object: string;
      data: { id: string }[];
    };
    expect(openai.object).toBe('list');
    expect(openai.data.map((model) => model.id)).toEqual(['model-a', 'model-b']);
    const anthropicList = (await (
      await fetch(`${server.url}/v1/models`, { headers: { 'anthropic-version': '2023-06-01' } })
    ).json()) as { data: { type: string; id: string }[]; has_more: boolean };
    expect(anthropicList.data[0]).toMatchObject({ type: 'model', id: 'model-a' });
    expect(anthropicList.has_more).toBe(false);
    const gemini = (await (await fetch(`${server.url}/v1beta/models?key=abc`)).json()) as {
      models: { name: string }[];
    };
    expect(gemini.models.map((model) => model.name)).toEqual(['models/model-a', 'models/model-b']);
    const ollama = (await (await fetch(`${server.url}/api/tags`)).json()) as { models: { name: string }[] };
    expect(ollama.models.map((model) => model.name)).toEqual(['model-a', 'model-b']);
  });
});

describe('error replays and faults without steps', () => {
  it('serves a recorded error body with its status, for a streamed request too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mock-error-replay-'));
    mkdirSync(join(dir, 'google-gemini'));
    const file = join(dir, 'google-gemini', 'quota.json');
    const body = { error: { code: 429, status: 'RESOURCE_EXHAUSTED', details: [{ retryDelay: '3s' }] } };
    writeFileSync(file, JSON.stringify(body));
    const server = await start({ steps: [{ replay: file, status: 429 }] });
    const response = await fetch(`${server.url}/v1beta/models/gemini-x:streamGenerateContent?alt=sse`, {
      method: 'POST',
      body: JSON.stringify({ contents: [] }),
    });
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual(body);
  });

  it('serves an injected error even when the script has no step left', async () => {
    const server = await start();
    server.injectFault({ kind: 'http_error', error: 'overloaded' });
    expect((await anthropic(server, {})).status).toBe(529);
    expect((await anthropic(server, {})).status).toBe(500);
  });
});
