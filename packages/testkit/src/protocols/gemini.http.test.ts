import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockFault, MockTurn } from '../script/types.js';
import { FAULT_HEADER, type MockServer, startMockServer } from '../server/mock-server.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../test/fixtures.js';

// Gemini over real HTTP: plain fetch, SSE parsed by hand, as a client without the SDK would.

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
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

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

function generate(model: string, stream: boolean, fault?: MockFault): Promise<Response> {
  const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  return fetch(`${server.url}/v1beta/models/${model}:${method}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-goog-api-key': 'AIza-test-0123456789',
      ...(fault ? { [FAULT_HEADER]: JSON.stringify(fault) } : {}),
    },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'What is the weather in Paris?' }] }] }),
  });
}

const toolTurn: MockTurn = {
  content: [
    { type: 'thinking', thinking: 'The user wants the weather.', signature: 'c2lnbmF0dXJl' },
    { type: 'text', text: 'Let me look that up for you.' },
    { type: 'tool_call', id: 'call_weather', name: 'get_weather', input: { city: 'Paris', unit: 'celsius' } },
  ],
  usage: { input: 120, output: 40, cacheRead: 100, reasoning: 12 },
  chunking: { textDelta: 6 },
};

describe('Gemini over HTTP', () => {
  it('streams SSE chunks a client can assemble into thoughts, text, a call and usage', async () => {
    server.enqueue(toolTurn);
    const response = await generate('gemini-2.5-flash', true);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await response.text());
    expect(events.every((event) => event.event === undefined)).toBe(true);
    const chunks = events.map((event) => JSON.parse(event.data) as unknown);
    const parts = chunks.flatMap((chunk) => list(at(chunk, 'candidates', 0, 'content', 'parts')));
    const thought = parts.filter((part) => at(part, 'thought') === true);
    expect(thought.map((part) => at(part, 'text')).join('')).toBe('The user wants the weather.');
    expect(thought.at(-1)).toMatchObject({ thoughtSignature: 'c2lnbmF0dXJl' });
    const text = parts
      .filter((part) => at(part, 'thought') === undefined && typeof at(part, 'text') === 'string')
      .map((part) => at(part, 'text'))
      .join('');
    expect(text).toBe('Let me look that up for you.');
    expect(parts.map((part) => at(part, 'functionCall')).filter(Boolean)).toEqual([
      { id: 'call_weather', name: 'get_weather', args: { city: 'Paris', unit: 'celsius' } },
    ]);
    const last = chunks.at(-1);
    expect(at(last, 'candidates', 0, 'finishReason')).toBe('STOP');
    expect(chunks.slice(0, -1).every((chunk) => at(chunk, 'candidates', 0, 'finishReason') === undefined)).toBe(true);
    expect(at(last, 'usageMetadata')).toMatchObject({
      promptTokenCount: 120,
      cachedContentTokenCount: 100,
      candidatesTokenCount: 28,
      thoughtsTokenCount: 12,
      totalTokenCount: 160,
    });
    expect(at(last, 'modelVersion')).toBe('gemini-2.5-flash');
  });

  it('answers generateContent with one GenerateContentResponse', async () => {
    server.enqueue({ text: 'Bonjour !', stopReason: 'max_tokens', usage: { input: 5, output: 3 } });
    const response = await generate('gemini-2.5-pro', false);
    expect(response.status).toBe(200);
    const body: unknown = await response.json();
    expect(at(body, 'candidates', 0)).toEqual({
      content: { parts: [{ text: 'Bonjour !' }], role: 'model' },
      finishReason: 'MAX_TOKENS',
      index: 0,
    });
    expect(at(body, 'usageMetadata', 'totalTokenCount')).toBe(8);
  });

  it('answers on a Vertex AI path too', async () => {
    server.enqueue({ text: 'From Vertex.' });
    const response = await fetch(
      `${server.url}/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.0-flash:generateContent`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"contents":[]}' },
    );
    expect(at(await response.json(), 'candidates', 0, 'content', 'parts', 0, 'text')).toBe('From Vertex.');
    expect(server.requests.at(-1)?.model).toBe('gemini-2.0-flash');
  });

  it('sends malformed call arguments in place of the args object', async () => {
    server.enqueue({
      content: [{ type: 'tool_call', name: 'f', input: { a: 1 } }],
      fault: { kind: 'malformed_tool_arguments' },
    });
    const body: unknown = await (await generate('gemini-2.5-flash', false)).json();
    const args = at(body, 'candidates', 0, 'content', 'parts', 0, 'functionCall', 'args');
    expect(typeof args).toBe('string');
    expect(() => JSON.parse(String(args))).toThrow();
  });

  it('returns a 429 with QuotaFailure and RetryInfo the client can wait on', async () => {
    server.enqueue({ text: 'after the wait' });
    const fault: MockFault = { kind: 'http_error', error: 'rate_limit', retryAfterMs: 2500, retryAfterSeconds: 3 };
    const response = await generate('gemini-2.5-flash', true, fault);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    const error = at(await response.json(), 'error');
    expect(at(error, 'status')).toBe('RESOURCE_EXHAUSTED');
    const details = list(at(error, 'details'));
    expect(details.find((detail) => String(at(detail, '@type')).endsWith('RetryInfo'))).toMatchObject({
      retryDelay: '2.5s',
    });
    expect(
      at(
        details.find((detail) => String(at(detail, '@type')).endsWith('QuotaFailure')),
        'violations',
        0,
        'quotaId',
      ),
    ).toContain('PerMinute');
    // The fault did not use the step up: the retry gets it.
    const retry = await generate('gemini-2.5-flash', false);
    expect(at(await retry.json(), 'candidates', 0, 'content', 'parts', 0, 'text')).toBe('after the wait');
  });

  it('reports a context overflow with the token counts', async () => {
    server.enqueue({ text: 'unused' });
    const fault: MockFault = {
      kind: 'http_error',
      error: 'context_overflow',
      requestedTokens: 1200293,
      limitTokens: 1048576,
    };
    const response = await generate('gemini-2.5-pro', false, fault);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: 400,
        message: 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).',
        status: 'INVALID_ARGUMENT',
      },
    });
    server.setScript({});
  });

  it('ends a mid-stream error with the error object as the last data line, and no finishReason', async () => {
    server.enqueue({
      text: 'This answer will break off halfway.',
      chunking: { textDelta: 5 },
      fault: { kind: 'mid_stream_error', afterEvents: 2, error: 'server' },
    });
    const response = await generate('gemini-2.5-flash', true);
    expect(response.status).toBe(200);
    const events = parseSse(await response.text());
    expect(events).toHaveLength(3);
    expect(JSON.parse(events[2]?.data ?? '')).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
    expect(events.some((event) => event.data.includes('finishReason'))).toBe(false);
  });

  it('leaves out the finishReason chunk when truncated', async () => {
    server.enqueue({ text: 'Cut short.', chunking: { textDelta: 4 }, fault: { kind: 'truncate' } });
    const events = parseSse(await (await generate('gemini-2.5-flash', true)).text());
    expect(events.map((event) => at(JSON.parse(event.data), 'candidates', 0, 'content', 'parts', 0, 'text'))).toEqual([
      'Cut ',
      'shor',
      't.',
    ]);
  });
});

describe.skipIf(!providerStreamsDir)(`Gemini replay over HTTP (${fixturesSkipReason})`, () => {
  it('serves a recorded stream line for line', async () => {
    const path = providerStreamsDir ? fixture('google-gemini/google-tool-call.chunks.txt') : '';
    server.enqueue({ replay: path });
    const recorded = (await readFile(path, 'utf8')).split('\n').filter((line) => line.trim() !== '');
    const events = parseSse(await (await generate('gemini-3-pro-preview', true)).text());
    expect(events.map((event) => event.data)).toEqual(recorded);
  });
});
