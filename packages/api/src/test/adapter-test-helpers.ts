import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { StreamEvent } from '../spec/stream-event.js';

// Helpers shared by the adapters' tests: event-sequence checks and a scriptable loopback server.

/** Event types in order, with runs of one delta type folded into `type*`. */
export function eventShape(events: readonly StreamEvent[]): string[] {
  const shape: string[] = [];
  for (const event of events) {
    const name = event.type.endsWith('-delta') ? `${event.type}*` : event.type;
    if (name.endsWith('*') && shape.at(-1) === name) continue;
    shape.push(name);
  }
  return shape;
}

/**
 * The stream contract: blocks start before their deltas and end once, nothing follows the one
 * terminal event, and every block is closed before `message-end`.
 */
export function expectWellFormed(events: readonly StreamEvent[]): void {
  const open = new Set<string>();
  const closed = new Set<string>();
  events.forEach((event, index) => {
    const last = index === events.length - 1;
    if (event.type === 'message-end' || event.type === 'error') {
      expect(last, `${event.type} must be the last event`).toBe(true);
      if (event.type === 'message-end') expect([...open]).toEqual([]);
      return;
    }
    if (event.type === 'message-start' || event.type === 'usage') return;
    const blockId = event.blockId;
    if (event.type.endsWith('-start') || event.type === 'redacted-thinking') {
      expect(open.has(blockId) || closed.has(blockId), `block ${blockId} started twice`).toBe(false);
      if (event.type === 'redacted-thinking') closed.add(blockId);
      else open.add(blockId);
    } else if (event.type.endsWith('-end')) {
      expect(open.has(blockId), `block ${blockId} ended without being open`).toBe(true);
      open.delete(blockId);
      closed.add(blockId);
    } else {
      expect(open.has(blockId), `${event.type} for block ${blockId} that is not open`).toBe(true);
    }
  });
  const terminal = events.filter((event) => event.type === 'message-end' || event.type === 'error');
  expect(terminal).toHaveLength(1);
}

/** A request as a loopback server received it, raw. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A tiny HTTP server on loopback answering every request with `respond`, for routes the mock lacks. */
export async function startLoopbackServer(
  respond: (request: ReceivedRequest) => { status: number; headers?: Record<string, string>; body: string },
): Promise<{ url: string; requests: ReceivedRequest[]; close(): Promise<void> }> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = {
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      const answer = respond(received);
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
