import type { AddressInfo } from 'node:net';
import { createAnthropicMessagesProvider } from '@boxagnts/api';
import type { QueryOutcome } from '@boxagnts/query';
import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { type ServerType, serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createShopApp } from './app.js';
import { shopScript } from './script.js';

let mock: MockServer | undefined;
let server: ServerType | undefined;
let closeApp: (() => Promise<void>) | undefined;

afterEach(async () => {
  await new Promise((resolve) => {
    if (server === undefined) return resolve(undefined);
    server.close(resolve);
    if ('closeAllConnections' in server) server.closeAllConnections();
  });
  server = undefined;
  await closeApp?.();
  await mock?.close();
});

async function start(script = shopScript(), onOutcome?: (outcome: QueryOutcome) => void): Promise<string> {
  mock = await startMockServer({ script });
  const provider = createAnthropicMessagesProvider({ baseURL: mock.url, apiKey: 'test-key' });
  const shop = await createShopApp({ provider, model: 'claude-sonnet-4-6', ...(onOutcome ? { onOutcome } : {}) });
  closeApp = shop.close;
  const listening = serve({ fetch: shop.app.fetch, hostname: '127.0.0.1', port: 0 });
  server = listening;
  await new Promise((resolve) => listening.once('listening', resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
}

/** Reads a whole SSE response into its events (name and parsed data). */
async function readEvents(response: Response): Promise<Array<{ event: string; data: Record<string, unknown> }>> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

describe('the embed-in-hono example', () => {
  it('serves the page and streams a run to the browser as Server-Sent Events', async () => {
    const base = await start();
    const page = await fetch(`${base}/`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain("new EventSource('/api/chat?prompt='");
    expect(await (await fetch(`${base}/api/health`)).json()).toEqual({ ok: true });

    for (const question of ['Where is order 1042?', 'And order 1042 again?']) {
      const response = await fetch(`${base}/api/chat?prompt=${encodeURIComponent(question)}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const events = await readEvents(response);
      expect(events[0]).toEqual({
        event: 'tool',
        data: { name: 'lookup_order', summary: 'looking up: {"order":"1042"}' },
      });
      const text = events.filter((event) => event.event === 'text');
      expect(text.length).toBeGreaterThan(3); // streamed in pieces, not in one block
      expect(text.map((event) => event.data.delta).join('')).toBe('Order 1042 has shipped; it arrives on Thursday.');
      expect(events.at(-1)).toEqual({
        event: 'done',
        data: { reason: 'end_turn', turns: 2, text: 'Order 1042 has shipped; it arrives on Thursday.' },
      });
    }
    // The tool's result went back to the model: the second call of each run carries it.
    const withResult = mock?.requests.filter((request) => JSON.stringify(request.body).includes('arrives Thursday'));
    expect(withResult).toHaveLength(2);
  });

  it('answers a missing prompt with a 400 that says what to send', async () => {
    const base = await start();
    const response = await fetch(`${base}/api/chat`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'Send a prompt of 1 to 4000 characters as ?prompt=' });
    expect(mock?.requests).toHaveLength(0);
  });

  it('cancels the run when the browser closes the stream', async () => {
    // The model stalls mid-answer, so the run is still streaming when the browser leaves.
    let ended: (outcome: QueryOutcome) => void = () => undefined;
    const outcome = new Promise<QueryOutcome>((resolve) => {
      ended = resolve;
    });
    const base = await start(
      {
        chunking: { textDelta: 8 },
        steps: [{ text: 'This answer stops streaming half way through.', fault: { kind: 'stall', afterEvents: 4 } }],
      },
      (value) => ended(value),
    );
    const controller = new AbortController();
    const response = await fetch(`${base}/api/chat?prompt=hello`, { signal: controller.signal });
    const reader = response.body?.getReader();
    let received = '';
    while (reader && !received.includes('event: text')) {
      const chunk = await reader.read();
      if (chunk.done) break;
      received += new TextDecoder().decode(chunk.value);
    }
    expect(received).toContain('event: text'); // the answer had started streaming
    controller.abort();
    expect((await outcome).reason).toBe('cancelled');
    expect(mock?.requests).toHaveLength(1);
  });
});
