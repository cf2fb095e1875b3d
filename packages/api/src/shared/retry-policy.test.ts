import { describe, expect, it } from 'vitest';
import { createLlmError } from '../spec/create-llm-error.js';
import { isAbortedError } from '../spec/llm-error-classes.js';
import { loopbackServers } from '../test/loopback-server.js';
import { createHttpAgent } from './http-agent.js';
import { createProviderFetch } from './provider-fetch.js';
import { decideRetry, type RetryEvent, withRetries } from './retry-policy.js';
import { sendRequest } from './send-request.js';

const listen = loopbackServers();
const fetch = createProviderFetch({ dispatcher: createHttpAgent() });

const overloaded = createLlmError({ reason: 'overloaded', message: 'busy' });

describe('decideRetry', () => {
  it('never retries a non-retryable error', () => {
    expect(decideRetry(createLlmError({ reason: 'invalid_request', message: 'bad' }), 0)).toEqual({ retry: false });
    expect(decideRetry(createLlmError({ reason: 'overloaded', message: 'x', isRetryable: false }), 0)).toEqual({
      retry: false,
    });
  });

  it('stops after maxRetries', () => {
    expect(decideRetry(overloaded, 2, { maxRetries: 2 })).toEqual({ retry: false });
    expect(decideRetry(overloaded, 1, { maxRetries: 2, random: () => 0 })).toEqual({ retry: true, delayMs: 0 });
  });

  it('uses full jitter over an exponentially growing, capped ceiling', () => {
    const options = { initialDelayMs: 1_000, maxDelayMs: 5_000, maxRetries: 10, random: () => 0.5 };
    expect(decideRetry(overloaded, 0, options)).toEqual({ retry: true, delayMs: 500 });
    expect(decideRetry(overloaded, 1, options)).toEqual({ retry: true, delayMs: 1_000 });
    expect(decideRetry(overloaded, 2, options)).toEqual({ retry: true, delayMs: 2_000 });
    expect(decideRetry(overloaded, 6, options)).toEqual({ retry: true, delayMs: 2_500 });
  });

  it("honours the server's wait up to the cap and fails at once beyond it", () => {
    const asked = createLlmError({ reason: 'rate_limit', message: 'slow', retryAfterMs: 20_000 });
    expect(decideRetry(asked, 0, { random: () => 0 })).toEqual({ retry: true, delayMs: 20_000 });
    const tooLong = createLlmError({ reason: 'rate_limit', message: 'slow', retryAfterMs: 3_600_000 });
    expect(decideRetry(tooLong, 0)).toEqual({ retry: false });
    expect(decideRetry(asked, 0, { maxRetryAfterMs: 10_000 })).toEqual({ retry: false });
  });
});

describe('withRetries', () => {
  it('retries a 503 against a real server until it succeeds, sleeping as decided', async () => {
    let hits = 0;
    const url = await listen((_request, response) => {
      hits += 1;
      if (hits < 3) response.writeHead(503).end('{"error":{"message":"Service Unavailable"}}');
      else response.end('{"ok":true}');
    });
    const sleeps: number[] = [];
    const retries: RetryEvent[] = [];
    const attempts: number[] = [];
    const result = await withRetries(
      async (attempt, signal) => {
        attempts.push(attempt);
        const response = await sendRequest({ providerId: 'acme', url, fetch, signal });
        return response.json();
      },
      {
        providerId: 'acme',
        random: () => 0.5,
        sleep: async (ms) => {
          sleeps.push(ms);
        },
        onRetry: (event) => retries.push(event),
      },
    );
    expect(result).toEqual({ ok: true });
    expect(attempts).toEqual([0, 1, 2]);
    expect(sleeps).toEqual([500, 1_000]);
    expect(retries.map((event) => [event.attempt, event.error.reason])).toEqual([
      [1, 'overloaded'],
      [2, 'overloaded'],
    ]);
  });

  it('does not retry a 400 and does not sleep for a retry-after beyond the cap', async () => {
    let hits = 0;
    const url = await listen((request, response) => {
      hits += 1;
      if (request.url === '/bad') response.writeHead(400).end('{"error":{"message":"unknown field"}}');
      else response.writeHead(429, { 'retry-after': '3600' }).end('{"error":{"message":"come back in an hour"}}');
    });
    const sleeps: number[] = [];
    const sleep = async (ms: number) => {
      sleeps.push(ms);
    };
    await expect(
      withRetries((_attempt, signal) => sendRequest({ providerId: 'acme', url: `${url}/bad`, fetch, signal }), {
        sleep,
      }),
    ).rejects.toMatchObject({ reason: 'invalid_request' });
    await expect(
      withRetries((_attempt, signal) => sendRequest({ providerId: 'acme', url: `${url}/slow`, fetch, signal }), {
        sleep,
      }),
    ).rejects.toMatchObject({ reason: 'rate_limit', retryAfterMs: 3_600_000 });
    expect(hits).toBe(2);
    expect(sleeps).toEqual([]);
  });

  it('converts thrown values into LlmErrors and gives up after maxRetries', async () => {
    let calls = 0;
    const error = await withRetries(
      async () => {
        calls += 1;
        throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
      },
      { maxRetries: 2, sleep: async () => undefined },
    ).catch((thrown: unknown) => thrown);
    expect(calls).toBe(3);
    expect(error).toMatchObject({ reason: 'network', isRetryable: true });
  });

  it('stops waiting at once when the caller aborts during the backoff', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = withRetries(
      async () => {
        setTimeout(() => controller.abort(), 10);
        throw overloaded;
      },
      { signal: controller.signal, initialDelayMs: 60_000, random: () => 1 },
    );
    const error = await pending.catch((thrown: unknown) => thrown);
    expect(isAbortedError(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
