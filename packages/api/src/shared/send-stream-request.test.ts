import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isLlmError } from '../spec/llm-error.js';
import { readBody } from './body-reader.js';
import { createHttpAgent } from './http-agent.js';
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

  it('errors the body when the signal fires mid-body, and stops listening to the signal', async () => {
    const url = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: one\n\n'); // and never ends
    });
    const controller = new AbortController();
    const response = await sendStreamRequest({ providerId: 'acme', url, body: {}, signal: controller.signal });
    const iterator = response.body[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(Buffer.from(first.value as Uint8Array).toString('utf8')).toBe('data: one\n\n');
    controller.abort(new Error('caller gave up'));
    await expect(iterator.next()).rejects.toThrow('caller gave up');
  });

  it('pauses the socket when the reader pauses and delivers the rest after resume', async () => {
    const size = 1 << 20;
    const url = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(Buffer.alloc(size, 97));
    });
    const response = await sendStreamRequest({ providerId: 'acme', url, body: {} });
    let received = 0;
    let chunksWhilePaused = 0;
    let paused = false;
    const ended = new Promise<void>((resolve, reject) => {
      const control = readBody(response.body, {
        chunk(chunk) {
          received += chunk.length;
          if (paused) chunksWhilePaused += 1;
          if (!paused && received < size) {
            paused = true;
            control.pause();
            setTimeout(() => {
              // At most the chunk already being parsed arrives after pause().
              expect(chunksWhilePaused).toBeLessThanOrEqual(1);
              paused = false;
              control.resume();
            }, 20);
          }
          return true;
        },
        end: resolve,
        error: reject,
      });
    });
    await ended;
    expect(received).toBe(size);
  });

  it('reads at most maxErrorBodyBytes of an error body', async () => {
    const url = await serve((_request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.write('x'.repeat(100));
      response.write('y'.repeat(100_000)); // and never ends
    });
    const failure = await sendStreamRequest({ providerId: 'acme', url, body: {}, maxErrorBodyBytes: 50 }).catch(
      (error: unknown) => error,
    );
    expect(isLlmError(failure) && failure.status).toBe(500);
    expect((failure as { body?: unknown }).body).toBe('x'.repeat(50));
  });

  it('reuses the keep-alive connection for the next stream once a body is read to its end', async () => {
    const sockets = new Set<unknown>();
    const url = await serve((request, response) => {
      sockets.add(request.socket);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('data: done\n\n');
    });
    const dispatcher = createHttpAgent();
    try {
      for (let index = 0; index < 3; index += 1) {
        const response = await sendStreamRequest({ providerId: 'acme', url, body: {}, dispatcher });
        expect(await text(response.body)).toBe('data: done\n\n');
        // undici releases the socket right after the body's end is delivered; the next request
        // goes out after that (sent in the same tick, the pool would open a second socket).
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(sockets.size).toBe(1);
    } finally {
      await dispatcher.close();
    }
  });
});
