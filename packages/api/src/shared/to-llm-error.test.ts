import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { fetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { isLlmError } from '../spec/llm-error.js';
import { RateLimitError } from '../spec/llm-error-classes.js';
import { createHttpAgent } from './http-agent.js';
import { createProviderFetch } from './provider-fetch.js';
import { toLlmError } from './to-llm-error.js';

const servers: Server[] = [];
const agent = createHttpAgent();

async function listen(server: Server): Promise<string> {
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

describe('toLlmError', () => {
  it('passes an LlmError through unchanged', () => {
    const error = new RateLimitError({ providerId: 'p' });
    expect(toLlmError(error)).toBe(error);
  });

  it('classifies a refused connection as a retryable network error', async () => {
    const url = await listen(createServer());
    const server = servers.pop();
    await new Promise((resolve) => server?.close(resolve));
    const thrown = await fetch(url, { dispatcher: agent }).catch((error: unknown) => error);
    const error = toLlmError(thrown, { providerId: 'acme', url });
    expect(error).toMatchObject({ reason: 'network', isRetryable: true, providerId: 'acme' });
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('classifies a socket destroyed mid-body as a network error', async () => {
    const url = await listen(
      createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: partial\n\n');
        setTimeout(() => response.socket?.destroy(), 5);
      }),
    );
    const response = await fetch(url, { dispatcher: agent });
    const thrown = await response.text().catch((error: unknown) => error);
    expect(toLlmError(thrown, { providerId: 'acme' })).toMatchObject({ reason: 'network', isRetryable: true });
  });

  it("is 'aborted' when the caller's signal fired and 'timeout' for an AbortSignal.timeout", async () => {
    const url = await listen(createServer(() => undefined));
    const controller = new AbortController();
    const pending = fetch(url, { dispatcher: agent, signal: controller.signal });
    controller.abort();
    const aborted = await pending.catch((error: unknown) => error);
    expect(toLlmError(aborted, { signal: controller.signal })).toMatchObject({ reason: 'aborted', isRetryable: false });

    const timedOut = await fetch(url, { dispatcher: agent, signal: AbortSignal.timeout(20) }).catch(
      (error: unknown) => error,
    );
    expect(toLlmError(timedOut, { providerId: 'acme' })).toMatchObject({ reason: 'timeout', isRetryable: true });
  });

  it('returns the LlmError an attempt was aborted with (a stall) rather than a generic abort', () => {
    const controller = new AbortController();
    const reason = new RateLimitError({ providerId: 'p' });
    controller.abort(reason);
    expect(toLlmError(new Error('aborted'), { signal: controller.signal })).toBe(reason);
  });

  it('classifies SDK API errors by their status and body', () => {
    const sdkError = Object.assign(new Error('429 rate limited'), {
      status: 429,
      headers: new Headers({ 'retry-after-ms': '250' }),
      error: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
    });
    const error = toLlmError(sdkError, { providerId: 'anthropic' });
    expect(error).toMatchObject({ reason: 'rate_limit', status: 429, retryAfterMs: 250 });
  });

  it('classifies the errors the Anthropic SDK throws against a real server', async () => {
    const url = await listen(
      createServer((request, response) => {
        if (request.url?.startsWith('/slow')) return;
        response.writeHead(429, {
          'retry-after-ms': '1500',
          'x-should-retry': 'true',
          'content-type': 'application/json',
        });
        response.end(
          '{"type":"error","error":{"type":"rate_limit_error","message":"Number of requests has exceeded your rate limit"}}',
        );
      }),
    );
    const options = {
      apiKey: 'sk-ant-test-key-0123456789',
      fetch: createProviderFetch({ dispatcher: agent }),
      maxRetries: 0,
    };
    const request = { model: 'claude-test', max_tokens: 8, messages: [{ role: 'user' as const, content: 'hi' }] };

    const rateLimited = await new Anthropic({ ...options, baseURL: url }).messages
      .create(request)
      .catch((error: unknown) => error);
    const error = toLlmError(rateLimited, { providerId: 'anthropic' });
    expect(error).toMatchObject({ name: 'RateLimitError', status: 429, retryAfterMs: 1_500, isRetryable: true });
    expect(error.message).toContain('exceeded your rate limit');

    const slow = new Anthropic({ ...options, baseURL: `${url}/slow`, timeout: 50 });
    const timedOut = await slow.messages.create(request).catch((thrown: unknown) => thrown);
    expect(toLlmError(timedOut, { providerId: 'anthropic' })).toMatchObject({ reason: 'timeout', isRetryable: true });
  });

  it('falls back to a non-retryable unknown error', () => {
    const error = toLlmError(new TypeError('x is not a function'), { providerId: 'p' });
    expect(isLlmError(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'unknown', isRetryable: false });
    expect(error.message).toContain('x is not a function');
    expect(toLlmError('plain string').message).toContain('plain string');
  });
});
