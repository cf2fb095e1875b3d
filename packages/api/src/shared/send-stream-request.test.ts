import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isLlmError } from '../spec/llm-error.js';
import { sendStreamRequest } from './send-stream-request.js';

const servers: Server[] = [];

async function serve(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

async function text(body: AsyncIterable<Uint8Array>): Promise<string> {
  let result = '';
  for await (const chunk of body) result += Buffer.from(chunk).toString('utf8');
  return result;
}

describe('sendStreamRequest', () => {
  it('posts JSON and returns the body as byte chunks as they arrive', async () => {
    let received = '';
    const url = await serve((request, response) => {
      request.on('data', (chunk: Buffer) => {
        received += chunk.toString('utf8');
      });
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: one\n\n');
        setTimeout(() => response.end('data: two\n\n'), 5);
      });
    });
    const response = await sendStreamRequest({ providerId: 'acme', url: `${url}/v1/chat`, body: { model: 'm' } });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    expect(await text(response.body)).toBe('data: one\n\ndata: two\n\n');
    expect(JSON.parse(received)).toEqual({ model: 'm' });
  });

  it('classifies an error status with the vendor rules and retry-after', async () => {
    const url = await serve((_request, response) => {
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
      response.end(JSON.stringify({ error: { message: 'Slow down, key sk-secret-123456 is busy' } }));
    });
    const failure = await sendStreamRequest({
      providerId: 'acme',
      url,
      body: {},
      knownSecrets: ['sk-secret-123456'],
    }).catch((error: unknown) => error);
    expect(isLlmError(failure)).toBe(true);
    expect(failure).toMatchObject({ reason: 'rate_limit', status: 429, retryAfterMs: 7000, isRetryable: true });
    expect(String((failure as Error).message)).not.toContain('sk-secret-123456');
  });

  it('follows a same-origin redirect and refuses a cross-origin one without sending the key there', async () => {
    let leaked = false;
    const other = await serve((_request, response) => {
      leaked = true;
      response.end('data: stolen\n\n');
    });
    const url = await serve((request, response) => {
      if (request.url === '/old') {
        response.writeHead(307, { location: '/new' });
        response.end();
      } else if (request.url === '/new') {
        response.writeHead(200);
        response.end('data: ok\n\n');
      } else {
        response.writeHead(307, { location: `${other}/steal` });
        response.end();
      }
    });
    const followed = await sendStreamRequest({
      providerId: 'acme',
      url: `${url}/old`,
      body: {},
      headers: { 'x-api-key': 'k' },
    });
    expect(await text(followed.body)).toBe('data: ok\n\n');
    const refused = await sendStreamRequest({
      providerId: 'acme',
      url: `${url}/away`,
      body: {},
      headers: { 'x-api-key': 'k' },
    }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'RedirectError', reason: 'invalid_request', isRetryable: false });
    expect(leaked).toBe(false);
  });

  it('rejects as aborted when the signal fires, and as network when the server is gone', async () => {
    const url = await serve(() => undefined);
    const controller = new AbortController();
    const pending = sendStreamRequest({ providerId: 'acme', url, body: {}, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ reason: 'aborted' });
    await expect(
      sendStreamRequest({ providerId: 'acme', url: 'http://127.0.0.1:1/x', body: {} }),
    ).rejects.toMatchObject({
      reason: 'network',
    });
  });
});
