import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isContextOverflowError, isRateLimitError, isRedirectError } from '../spec/llm-error-classes.js';
import { createHttpAgent } from './http-agent.js';
import { createProviderFetch } from './provider-fetch.js';
import { sendRequest } from './send-request.js';

const servers: Server[] = [];
const fetch = createProviderFetch({ dispatcher: createHttpAgent() });

async function listen(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

describe('sendRequest', () => {
  it('posts JSON and returns a 2xx response', async () => {
    let received: { method?: string; type?: string; body: string } = { body: '' };
    const url = await listen(async (request, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      received = { method: request.method, type: request.headers['content-type'], body };
      response.end('{"ok":true}');
    });
    const response = await sendRequest({ providerId: 'acme', url, body: { model: 'm' }, fetch });
    expect(await response.json()).toEqual({ ok: true });
    expect(received).toEqual({ method: 'POST', type: 'application/json', body: '{"model":"m"}' });
  });

  it('rejects with the classified error of a non-2xx response', async () => {
    const url = await listen((_request, response) => {
      response.writeHead(429, { 'retry-after': '3', 'content-type': 'application/json' });
      response.end('{"error":{"message":"Too many requests","type":"rate_limit_error"}}');
    });
    const error = await sendRequest({ providerId: 'acme', url, body: {}, fetch }).catch((thrown: unknown) => thrown);
    expect(isRateLimitError(error)).toBe(true);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 3_000, url: `${url}/` });
  });

  it('uses the adapter rules and reads context-overflow counts', async () => {
    const url = await listen((_request, response) => {
      response
        .writeHead(400)
        .end(
          '{"error":{"message":"This model\'s maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.","code":"context_length_exceeded"}}',
        );
    });
    const error = await sendRequest({ providerId: 'openai', url, body: {}, fetch }).catch((thrown: unknown) => thrown);
    expect(isContextOverflowError(error)).toBe(true);
    expect(error).toMatchObject({ requestedTokens: 130_000, limitTokens: 128_000 });
  });

  it('reads at most maxErrorBodyBytes of an error body', async () => {
    const url = await listen((_request, response) => {
      response.writeHead(500);
      response.end('x'.repeat(100_000));
    });
    const error = await sendRequest({ providerId: 'acme', url, fetch, maxErrorBodyBytes: 1_000 }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ reason: 'server', body: 'x'.repeat(1_000) });
  });

  it('rejects with a network error when nothing listens, and refuses a cross-origin redirect', async () => {
    const url = await listen(() => undefined);
    const server = servers.pop();
    await new Promise((resolve) => server?.close(resolve));
    await expect(sendRequest({ providerId: 'acme', url, fetch })).rejects.toMatchObject({ reason: 'network' });

    const target = await listen((_request, response) => response.end('never'));
    const redirecting = await listen((_request, response) => response.writeHead(308, { location: target }).end());
    const error = await sendRequest({ providerId: 'acme', url: redirecting, body: {}, fetch }).catch(
      (thrown: unknown) => thrown,
    );
    expect(isRedirectError(error)).toBe(true);
  });

  it("rejects with 'aborted' when the caller aborts", async () => {
    const url = await listen(() => undefined);
    const controller = new AbortController();
    const pending = sendRequest({ providerId: 'acme', url, fetch, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ reason: 'aborted', providerId: 'acme' });
  });
});
