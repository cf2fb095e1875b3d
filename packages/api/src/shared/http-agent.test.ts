import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { isRequestTimeoutError } from '../spec/llm-error-classes.js';
import { configureSharedHttpAgent, createHttpAgent, getSharedHttpAgent } from './http-agent.js';
import { toLlmError } from './to-llm-error.js';

const servers: Server[] = [];

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

describe('createHttpAgent', () => {
  it('keeps connections alive and reuses them', async () => {
    const clientPorts: number[] = [];
    const url = await listen(
      createServer((request, response) => {
        clientPorts.push(request.socket.remotePort ?? -1);
        response.end('ok');
      }),
    );
    const agent = createHttpAgent();
    for (let index = 0; index < 6; index += 1) {
      const response = await fetch(url, { dispatcher: agent });
      expect(await response.text()).toBe('ok');
    }
    expect(clientPorts).toHaveLength(6);
    // Back-to-back requests may open a second socket before the first is released; never one per request.
    expect(new Set(clientPorts).size).toBeLessThanOrEqual(2);
    await agent.close();
  });

  it('applies the headers timeout, which classifies as a timeout', async () => {
    const url = await listen(createServer(() => undefined));
    const agent = createHttpAgent({ headersTimeoutMs: 200 });
    const started = Date.now();
    const error = await fetch(url, { dispatcher: agent }).catch((thrown: unknown) => thrown);
    const llmError = toLlmError(error, { providerId: 'acme', url });
    expect(isRequestTimeoutError(llmError)).toBe(true);
    expect(llmError.message).toContain('UND_ERR_HEADERS_TIMEOUT');
    expect(llmError.isRetryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    await agent.destroy();
  });
});

describe('the shared agent', () => {
  it('is created once on first use and replaced by configureSharedHttpAgent', async () => {
    const first = getSharedHttpAgent();
    expect(getSharedHttpAgent()).toBe(first);
    const second = configureSharedHttpAgent({ connectTimeoutMs: 2_000 });
    expect(second).not.toBe(first);
    expect(getSharedHttpAgent()).toBe(second);
    await new Promise((resolve) => setImmediate(resolve));
    expect(first.closed).toBe(true);
  });
});
