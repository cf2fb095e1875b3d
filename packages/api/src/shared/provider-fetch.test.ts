import { once } from 'node:events';
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { isRedirectError } from '../spec/llm-error-classes.js';
import { createHttpAgent } from './http-agent.js';
import { createProviderFetch } from './provider-fetch.js';

interface Loopback {
  url: string;
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
}

const servers: Server[] = [];
const agent = createHttpAgent({ keepAliveTimeoutMs: 1_000 });
const providerFetch = createProviderFetch({ dispatcher: agent, providerId: 'acme' });

async function listen(handler: RequestListener): Promise<Loopback> {
  const requests: Loopback['requests'] = [];
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
    handler(request, response);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

describe('createProviderFetch', () => {
  it('refuses a redirect to another origin and never contacts it', async () => {
    const other = await listen((_request, response) => response.end('secret-sink'));
    const origin = await listen((_request, response) => {
      response.writeHead(307, { location: `${other.url}/v1/messages` }).end();
    });
    const attempt = providerFetch(`${origin.url}/v1/messages?key=AIzaSyA-very-secret-google-key-123`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk-ant-secret-value-1234567890', 'content-type': 'application/json' },
      body: '{"model":"m"}',
    });
    const error = await attempt.catch((thrown: unknown) => thrown);
    expect(isRedirectError(error)).toBe(true);
    if (!isRedirectError(error)) return;
    expect(error.status).toBe(307);
    expect(error.providerId).toBe('acme');
    expect(error.location).toBe(`${other.url}/v1/messages`);
    expect(error.message).toContain('another origin');
    expect(error.message).toContain('base URL');
    expect(error.message).not.toContain('sk-ant-secret');
    expect(error.url).toContain('key=[redacted]');
    expect(error.isRetryable).toBe(false);
    expect(origin.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
  });

  it('treats another port on the same host as another origin', async () => {
    const first = await listen((_request, response) => response.end('first'));
    const second = await listen((_request, response) => {
      response.writeHead(302, { location: first.url.replace('127.0.0.1', 'localhost') }).end();
    });
    await expect(providerFetch(second.url)).rejects.toMatchObject({ name: 'RedirectError', reason: 'invalid_request' });
    expect(first.requests).toHaveLength(0);
  });

  it('follows a same-origin 307/308 with the method, headers and body intact', async () => {
    const server = await listen((request, response) => {
      if (request.url === '/old') response.writeHead(307, { location: '/mid' }).end();
      else if (request.url === '/mid') response.writeHead(308, { location: '/new' }).end();
      else response.writeHead(200, { 'content-type': 'text/plain' }).end(`final ${request.method}`);
    });
    const response = await providerFetch(`${server.url}/old`, {
      method: 'POST',
      headers: { 'x-api-key': 'k1', 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('final POST');
    expect(
      server.requests.map((request) => [request.url, request.method, request.body, request.headers['x-api-key']]),
    ).toEqual([
      ['/old', 'POST', '{"a":1}', 'k1'],
      ['/mid', 'POST', '{"a":1}', 'k1'],
      ['/new', 'POST', '{"a":1}', 'k1'],
    ]);
  });

  it('turns a POST into a GET without body on 303', async () => {
    const server = await listen((request, response) => {
      if (request.url === '/submit') response.writeHead(303, { location: '/result' }).end();
      else response.end('done');
    });
    const response = await providerFetch(`${server.url}/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await response.text()).toBe('done');
    expect(server.requests[1]).toMatchObject({ url: '/result', method: 'GET', body: '' });
    expect(server.requests[1]?.headers['content-type']).toBeUndefined();
  });

  it('stops after maxRedirects', async () => {
    const server = await listen((_request, response) => response.writeHead(302, { location: '/loop' }).end());
    const limited = createProviderFetch({ dispatcher: agent, maxRedirects: 2 });
    await expect(limited(`${server.url}/loop`)).rejects.toThrow('More than 2 redirects');
    expect(server.requests).toHaveLength(3);
  });

  it("returns the redirect itself under redirect: 'manual'", async () => {
    const server = await listen((_request, response) =>
      response.writeHead(301, { location: 'http://elsewhere.test/' }).end(),
    );
    const response = await providerFetch(server.url, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('http://elsewhere.test/');
  });

  it("encodes Node's FormData as multipart (undici 7 would not recognise it)", async () => {
    const server = await listen((_request, response) => response.end('ok'));
    const form = new FormData();
    form.append('purpose', 'batch');
    const response = await providerFetch(`${server.url}/upload`, { method: 'POST', body: form });
    expect(await response.text()).toBe('ok');
    expect(server.requests[0]?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(server.requests[0]?.body).toContain('name="purpose"');
    expect(server.requests[0]?.body).toContain('batch');
  });

  it('works as the fetch of the Anthropic SDK', async () => {
    const server = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          content: [{ type: 'text', text: 'hi from loopback' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 3, output_tokens: 4 },
        }),
      );
    });
    const client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, fetch: providerFetch, maxRetries: 0 });
    const message = await client.messages.create({
      model: 'claude-test',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'hi from loopback' });
    expect(server.requests[0]?.url).toBe('/v1/messages');
    expect(JSON.parse(server.requests[0]?.body ?? '{}')).toMatchObject({ model: 'claude-test', max_tokens: 16 });
  });

  it('works as the fetch of the OpenAI SDK', async () => {
    const server = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: 'gpt-test',
          choices: [{ index: 0, message: { role: 'assistant', content: 'hello back' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 },
        }),
      );
    });
    const client = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1`, fetch: providerFetch, maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe('hello back');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key');
  });
});
