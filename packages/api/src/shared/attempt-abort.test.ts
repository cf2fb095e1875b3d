import { getEventListeners, once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../spec/stream-event.js';
import { attachAttemptAbortSlot, attemptAbortSlot } from './attempt-abort.js';
import { decodeSseStream } from './decode-sse-stream.js';
import { createHttpAgent } from './http-agent.js';
import { sendStreamRequest } from './send-stream-request.js';
import { streamWithRetries } from './stream-with-retries.js';

const servers: Server[] = [];

/** A server that takes each request and never answers it; resolves with the URL and the requests seen. */
async function silentServer(): Promise<{
  url: string;
  requests: IncomingMessage[];
  arrived: Promise<IncomingMessage>;
}> {
  const requests: IncomingMessage[] = [];
  let arrive: (request: IncomingMessage) => void = () => undefined;
  const arrived = new Promise<IncomingMessage>((resolve) => {
    arrive = resolve;
  });
  const server = createServer((request) => {
    requests.push(request);
    arrive(request);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, arrived };
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('attempt abort slot', () => {
  it('is found only on the signal it was attached to', () => {
    const attempt = new AbortController();
    const slot = attachAttemptAbortSlot(attempt.signal);
    expect(attemptAbortSlot(attempt.signal)).toBe(slot);
    expect(attemptAbortSlot(new AbortController().signal)).toBeUndefined();
    expect(attemptAbortSlot(undefined)).toBeUndefined();
  });

  it("puts an attempt's request in the slot, not as a listener, and the caller's abort still cuts it before the head", async () => {
    const server = await silentServer();
    const dispatcher = createHttpAgent();
    const caller = new AbortController();
    const seen: { listeners: number; slotted: boolean }[] = [];
    const stream = streamWithRetries(
      async (_attempt, signal) => {
        const response = sendStreamRequest({
          providerId: 'acme',
          url: `${server.url}/v1/chat`,
          body: {},
          signal,
          dispatcher,
        });
        await server.arrived;
        seen.push({
          listeners: getEventListeners(signal, 'abort').length,
          slotted: attemptAbortSlot(signal)?.request !== undefined,
        });
        caller.abort(new Error('user stop'));
        return decodeSseStream((await response).body, { event: () => undefined });
      },
      { providerId: 'acme', signal: caller.signal, maxRetries: 0 },
    );
    const events = await collect(stream);
    expect(seen).toEqual([{ listeners: 0, slotted: true }]);
    expect(events).toHaveLength(1);
    expect(events[0]?.type === 'error' && events[0].error.reason).toBe('aborted');
    const request = server.requests[0] as IncomingMessage;
    if (!request.socket.destroyed) await once(request.socket, 'close');
    expect(request.socket.destroyed).toBe(true);
    await dispatcher.close();
  });

  it('lets a first-byte stall abort the request it holds (the connection is closed, the stall reported)', async () => {
    const server = await silentServer();
    const dispatcher = createHttpAgent();
    const stream = streamWithRetries(
      async (_attempt, signal) => {
        const response = await sendStreamRequest({
          providerId: 'acme',
          url: `${server.url}/v1/chat`,
          body: {},
          signal,
          dispatcher,
        });
        return decodeSseStream(response.body, { event: () => undefined });
      },
      { providerId: 'acme', maxRetries: 0, stall: { firstByteTimeoutMs: 30 } },
    );
    const events = await collect(stream);
    expect(events).toHaveLength(1);
    expect(events[0]?.type === 'error' && events[0].error.reason).toBe('stream_stall');
    const request = server.requests[0] as IncomingMessage;
    if (!request.socket.destroyed) await once(request.socket, 'close');
    expect(request.socket.destroyed).toBe(true);
    await dispatcher.close();
  });

  it('leaves other signals to a listener, removed when the body ends', async () => {
    const server = await silentServer();
    const dispatcher = createHttpAgent();
    const caller = new AbortController();
    const pending = sendStreamRequest({
      providerId: 'acme',
      url: `${server.url}/v1/chat`,
      body: {},
      signal: caller.signal,
      dispatcher,
    });
    await server.arrived;
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    caller.abort();
    await expect(pending).rejects.toMatchObject({ reason: 'aborted' });
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    await dispatcher.close();
  });
});
