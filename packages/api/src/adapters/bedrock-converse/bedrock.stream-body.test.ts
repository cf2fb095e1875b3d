import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { collect } from './bedrock.test.helpers.js';
import { createBedrockConverseProvider } from './bedrock-provider.js';

// How the adapter reads a ConverseStream body off the wire: to its end (so the connection is
// reused), and with the events before a corrupt frame delivered before the error.

const codec = new EventStreamCodec(toUtf8, fromUtf8);

function frame(eventType: string, payload: unknown): Uint8Array {
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: eventType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

const opening = [
  frame('messageStart', { role: 'assistant' }),
  frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hello' } }),
  frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' world' } }),
];
const closing = [
  frame('contentBlockStop', { contentBlockIndex: 0 }),
  frame('messageStop', { stopReason: 'end_turn' }),
  frame('metadata', { usage: { inputTokens: 3, outputTokens: 2 } }),
];

let server: Server | undefined;
let agent: Agent | undefined;

afterEach(async () => {
  await agent?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
  agent = undefined;
});

/** A server answering every request with `respond`; counts the TCP connections it accepts. */
async function serve(respond: (response: ServerResponse) => void) {
  let connections = 0;
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
      respond(response);
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  agent = new Agent();
  const provider = createBedrockConverseProvider({
    baseURL: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    apiKey: 'test-bedrock-key',
    dispatcher: agent,
    retry: { maxRetries: 2, sleep: async () => undefined },
  });
  return { provider, connections: () => connections };
}

describe('the ConverseStream body', () => {
  it('is read to its end after the terminal event, so the next call reuses the connection', async () => {
    const { provider, connections } = await serve((response) => {
      // Everything up to metadata at once; the body itself ends a little later.
      response.write(Buffer.concat([...opening, ...closing]));
      setTimeout(() => response.end(), 30);
    });
    for (let call = 0; call < 2; call += 1) {
      const events = await collect(provider);
      expect(events.at(-1)?.type).toBe('message-end');
      // Time for the client to read the body's end (30 ms later) and hand the connection back, with a margin
      // for a loaded CI machine.
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(connections()).toBe(1);
  });

  it('delivers the events before a corrupt frame, then one network error (no retry after content)', async () => {
    let requests = 0;
    const corrupt = frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: '!' } });
    corrupt[corrupt.byteLength - 8] = (corrupt[corrupt.byteLength - 8] ?? 0) ^ 0xff;
    const { provider } = await serve((response) => {
      requests += 1;
      response.end(Buffer.concat([...opening, corrupt, ...closing]));
    });
    const events = await collect(provider);
    const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('');
    expect(text).toBe('Hello world');
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { reason: 'network' } });
    expect(requests).toBe(1);
  });
});
