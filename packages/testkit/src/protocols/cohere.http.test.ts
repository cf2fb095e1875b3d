import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockFault, MockTurn } from '../script/types.js';
import { FAULT_HEADER, type MockServer, startMockServer } from '../server/mock-server.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../test/fixtures.js';

// Cohere v2 chat over real HTTP: plain fetch, SSE parsed by hand.

let server: MockServer;

beforeAll(async () => {
  server = await startMockServer();
});

afterAll(async () => {
  await server.close();
});

/** Walk parsed JSON by keys and indexes; undefined where the path does not exist. */
function at(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** SSE events of a body: the `event:` name (if any) and the joined `data:` lines. */
function parseSse(text: string): { event: string | undefined; data: string }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      return { event, data };
    });
}

function chat(stream: boolean, fault?: MockFault): Promise<Response> {
  return fetch(`${server.url}/v2/chat`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer co-test-0123456789',
      ...(fault ? { [FAULT_HEADER]: JSON.stringify(fault) } : {}),
    },
    body: JSON.stringify({
      model: 'command-a-03-2025',
      stream,
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
    }),
  });
}

const toolTurn: MockTurn = {
  content: [
    { type: 'text', text: 'I will use the weather tool.' },
    { type: 'tool_call', id: 'get_weather_abc', name: 'get_weather', input: { location: 'Paris' } },
  ],
  usage: { input: 1549, output: 44, cacheRead: 1504 },
  chunking: { textDelta: 6, argumentsDelta: 5 },
};

describe('Cohere v2 chat over HTTP', () => {
  it('streams typed SSE events a client assembles into a tool plan, a tool call and usage', async () => {
    server.enqueue(toolTurn);
    const response = await chat(true);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await response.text());
    const payloads = events.map((event) => JSON.parse(event.data) as unknown);
    expect(events.map((event) => event.event)).toEqual(payloads.map((payload) => at(payload, 'type')));
    expect(events[0]?.event).toBe('message-start');
    const plan = payloads
      .filter((payload) => at(payload, 'type') === 'tool-plan-delta')
      .map((payload) => at(payload, 'delta', 'message', 'tool_plan'))
      .join('');
    expect(plan).toBe('I will use the weather tool.');
    const start = payloads.find((payload) => at(payload, 'type') === 'tool-call-start');
    expect(at(start, 'delta', 'message', 'tool_calls')).toEqual({
      id: 'get_weather_abc',
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    const argumentsText = payloads
      .filter((payload) => at(payload, 'type') === 'tool-call-delta')
      .map((payload) => at(payload, 'delta', 'message', 'tool_calls', 'function', 'arguments'))
      .join('');
    expect(JSON.parse(argumentsText)).toEqual({ location: 'Paris' });
    expect(payloads.at(-1)).toEqual({
      type: 'message-end',
      delta: {
        finish_reason: 'TOOL_CALL',
        usage: {
          billed_units: { input_tokens: 45, output_tokens: 44 },
          tokens: { input_tokens: 1549, output_tokens: 44 },
          cached_tokens: 1504,
        },
      },
    });
  });

  it('answers a non-streamed request with one chat response', async () => {
    server.enqueue({ text: 'The capital of France is Paris.', usage: { input: 12, output: 7 } });
    const response = await chat(false);
    expect(response.status).toBe(200);
    const body: unknown = await response.json();
    expect(at(body, 'message')).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'The capital of France is Paris.' }],
    });
    expect(at(body, 'finish_reason')).toBe('COMPLETE');
    expect(typeof at(body, 'id')).toBe('string');
  });

  it('answers errors with the status and a {message} body', async () => {
    server.enqueue({ text: 'after the errors' });
    const limited = await chat(false, { kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 6 });
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '6']);
    expect(at(await limited.json(), 'message')).toContain('Trial key');
    const tooLong = await chat(false, {
      kind: 'http_error',
      error: 'context_overflow',
      requestedTokens: 140000,
      limitTokens: 128000,
    });
    expect(tooLong.status).toBe(400);
    expect(at(await tooLong.json(), 'message')).toContain('cannot exceed 128000 - received 140000');
    const retry = await chat(false);
    expect(at(await retry.json(), 'message', 'content', 0, 'text')).toBe('after the errors');
  });

  it('ends a mid-stream error with a message-end carrying finish_reason ERROR', async () => {
    server.enqueue({ ...toolTurn, fault: { kind: 'mid_stream_error', afterEvents: 3, message: 'upstream failed' } });
    const events = parseSse(await (await chat(true)).text());
    expect(events).toHaveLength(4);
    expect(events[3]?.event).toBe('message-end');
    expect(JSON.parse(events[3]?.data ?? '')).toEqual({
      type: 'message-end',
      delta: { error: 'upstream failed', finish_reason: 'ERROR' },
    });
  });

  it('leaves out message-end when truncated', async () => {
    server.enqueue({ ...toolTurn, fault: { kind: 'truncate' } });
    const events = parseSse(await (await chat(true)).text());
    expect(events.at(-1)?.event).toBe('tool-call-end');
    expect(events.some((event) => event.event === 'message-end')).toBe(false);
  });
});

describe.skipIf(!providerStreamsDir)(`Cohere replay over HTTP (${fixturesSkipReason})`, () => {
  it('serves a recorded stream with each type as the SSE event name', async () => {
    const path = providerStreamsDir ? fixture('cohere-v2/cohere-reasoning.chunks.txt') : '';
    server.enqueue({ replay: path });
    const recorded = (await readFile(path, 'utf8')).split('\n').filter((line) => line.trim() !== '');
    const events = parseSse(await (await chat(true)).text());
    expect(events.map((event) => event.data)).toEqual(recorded);
    expect(events.map((event) => event.event)).toEqual(recorded.map((line) => at(JSON.parse(line), 'type')));
  });
});
