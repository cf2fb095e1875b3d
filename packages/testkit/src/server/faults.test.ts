import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_IDS, type ProtocolId } from '../protocols/protocol.js';
import { RENDERERS } from '../protocols/registry.js';
import type { MockErrorKind, MockFault, MockTurn } from '../script/types.js';
import { requestFor } from '../test/requests.js';
import { FAULT_HEADER, type MockServer, startMockServer } from './mock-server.js';

// Every fault kind, against every protocol, observed the way a client sees it: over real HTTP.

const turn: MockTurn = {
  content: [
    { type: 'text', text: 'Here is a fairly long answer that streams in several deltas.' },
    { type: 'tool_call', id: 'call_fixed_1', name: 'lookup', input: { query: 'weather', days: 3 } },
  ],
  chunking: { textDelta: 8, argumentsDelta: 6 },
};

let server: MockServer;
// Short idle timer on the client side: a stalled body must time out, not hang the test.
const agent = new Agent({ bodyTimeout: 400, headersTimeout: 2_000 });

beforeAll(async () => {
  server = await startMockServer({ script: { steps: [turn], repeatLast: true } });
});

afterAll(async () => {
  await server.close();
  await agent.close();
});

function send(protocol: ProtocolId, stream: boolean, fault?: MockFault) {
  const request = requestFor(protocol, stream);
  return undiciFetch(`${server.url}${request.path}`, {
    method: 'POST',
    dispatcher: agent,
    headers: { ...request.headers, ...(fault ? { [FAULT_HEADER]: JSON.stringify(fault) } : {}) },
    body: JSON.stringify(request.body),
  });
}

/** Response ids and timestamps differ per response; blank them (same length) to compare bytes. */
function normalise(bytes: Buffer): string {
  return (
    bytes
      .toString('latin1')
      .replace(/mock\d+/g, (id) => `mock${'0'.repeat(id.length - 4)}`)
      .replace(
        /("created(?:_at)?":\s*)(\d+)/g,
        (_, key: string, digits: string) => `${key}${'0'.repeat(digits.length)}`,
      )
      // Ollama stamps each chunk with an ISO time; two requests can straddle a second.
      .replace(/("created_at":")([^"]*)/g, (_, key: string, time: string) => `${key}${time.replace(/\d/g, '0')}`)
  );
}

async function bytesOf(protocol: ProtocolId, stream: boolean, fault?: MockFault): Promise<Buffer> {
  const response = await send(protocol, stream, fault);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

const errorKinds: MockErrorKind[] = [
  'rate_limit',
  'overloaded',
  'quota',
  'context_overflow',
  'auth',
  'permission',
  'not_found',
  'invalid_request',
  'server',
];

describe.each(PROTOCOL_IDS.map((protocol) => [protocol]))('faults over %s', (protocol) => {
  it('answers every http_error kind with an error status, a JSON body and retry-after when asked', async () => {
    for (const error of errorKinds) {
      const response = await send(protocol, true, { kind: 'http_error', error, retryAfterSeconds: 7 });
      expect(response.status, error).toBeGreaterThanOrEqual(400);
      expect(response.headers.get('retry-after'), error).toBe('7');
      const body = await response.text();
      expect(() => JSON.parse(body), `${error} body is JSON`).not.toThrow();
    }
    const statuses = await Promise.all(
      (['rate_limit', 'auth', 'not_found'] as const).map(
        async (error) => (await send(protocol, false, { kind: 'http_error', error })).status,
      ),
    );
    expect(statuses).toEqual([429, expect.any(Number), 404]);
    // Gemini answers a bad key with 400 INVALID_ARGUMENT, the others with 401 or 403.
    expect([400, 401, 403]).toContain(statuses[1]);
  });

  it('honours a status override', async () => {
    const response = await send(protocol, false, { kind: 'http_error', error: 'overloaded', status: 503 });
    expect(response.status).toBe(503);
  });

  it('a reset is a network error after exactly the bytes it allows', async () => {
    const full = await bytesOf(protocol, true);
    const afterBytes = Math.floor(full.length / 2);
    const response = await send(protocol, true, { kind: 'reset', afterBytes });
    const reader = response.body?.getReader();
    const received: Uint8Array[] = [];
    const failure = await (async () => {
      try {
        for (;;) {
          const next = await reader?.read();
          if (!next || next.done) return undefined;
          received.push(next.value);
        }
      } catch (error) {
        return error as Error;
      }
    })();
    expect(failure).toBeInstanceOf(Error);
    const got = Buffer.concat(received);
    expect(got.length).toBe(afterBytes);
    expect(normalise(got)).toBe(normalise(full.subarray(0, afterBytes)));
  });

  it('truncate ends the stream cleanly without its closing events', async () => {
    const full = await bytesOf(protocol, true);
    const truncated = await bytesOf(protocol, true, { kind: 'truncate' });
    expect(truncated.length).toBeLessThan(full.length);
    expect(normalise(full.subarray(0, truncated.length))).toBe(normalise(truncated));
  });

  it('a stall after the headers times out the client idle timer', async () => {
    const response = await send(protocol, true, { kind: 'stall', afterEvents: 1 });
    expect(response.status).toBe(200);
    const error = await response.arrayBuffer().then(
      () => undefined,
      (caught: Error) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    const code = (error as Error & { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
    expect(code).toBe('UND_ERR_BODY_TIMEOUT');
  });

  it('mid_stream_error sends the vendor error event after some content, then ends', async () => {
    const request = requestFor(protocol, true);
    const expected = RENDERERS[protocol].renderStreamError(
      { error: 'overloaded' },
      {
        protocol,
        method: 'POST',
        path: request.path,
        query: new URLSearchParams(),
        headers: {},
        body: request.body,
        rawBody: JSON.stringify(request.body),
        model: 'mock-model',
        stream: true,
        includeUsage: true,
      },
      { eventsSent: 2 },
    );
    const body = await bytesOf(protocol, true, { kind: 'mid_stream_error', afterEvents: 2 });
    const payload = Buffer.from(expected.data);
    expect(body.includes(payload)).toBe(true);
    expect(body.subarray(body.length - payload.length - 8).includes(payload)).toBe(true);
  });

  it('a non-streamed body can be truncated into invalid JSON', async () => {
    const whole = await bytesOf(protocol, false);
    expect(() => JSON.parse(whole.toString('utf8'))).not.toThrow();
    const cut = await bytesOf(protocol, false, { kind: 'truncate' });
    expect(() => JSON.parse(cut.toString('utf8'))).toThrow();
  });
});

describe('stall with keep-alives only', () => {
  it('keeps sending the protocol keep-alive and nothing else', async () => {
    const controller = new AbortController();
    const response = await undiciFetch(`${server.url}/v1/messages`, {
      method: 'POST',
      signal: controller.signal,
      headers: { [FAULT_HEADER]: JSON.stringify({ kind: 'stall', pingIntervalMs: 20 }) },
      body: JSON.stringify(requestFor('anthropic', true).body),
    });
    const reader = response.body?.getReader();
    let text = '';
    while ((text.match(/event: ping/g) ?? []).length < 3) {
      const next = await reader?.read();
      if (!next || next.done) break;
      text += Buffer.from(next.value).toString('utf8');
    }
    controller.abort();
    expect((text.match(/event: ping/g) ?? []).length).toBeGreaterThanOrEqual(3);
    expect(text.replace(/event: ping\ndata: \{"type": ?"ping"\}\n\n/g, '')).toBe('');
  });
});

describe('stall with keep-alives where the protocol has none', () => {
  it.each([['ollama'], ['bedrock']] as const)(
    '%s sends nothing at all, so the client idle timer fires',
    async (protocol) => {
      const response = await send(protocol, true, { kind: 'stall', pingIntervalMs: 20 });
      const reader = response.body?.getReader();
      let received = 0;
      const failure = await (async () => {
        try {
          for (;;) {
            const next = await reader?.read();
            if (!next || next.done) return undefined;
            received += next.value.length;
          }
        } catch (error) {
          return error as Error & { cause?: { code?: string } };
        }
      })();
      expect(received).toBe(0);
      expect(failure?.cause?.code ?? (failure as { code?: string } | undefined)?.code).toBe('UND_ERR_BODY_TIMEOUT');
    },
  );
});
