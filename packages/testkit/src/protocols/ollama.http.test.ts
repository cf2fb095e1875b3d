import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockFault, MockTurn } from '../script/types.js';
import { FAULT_HEADER, type MockServer, startMockServer } from '../server/mock-server.js';

// Ollama /api/chat over real HTTP: plain fetch, NDJSON split by hand.

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

/** NDJSON: one JSON value per non-empty line; the text must end with a newline. */
function parseNdjson(text: string): unknown[] {
  expect(text.endsWith('\n')).toBe(true);
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
}

function chat(body: Record<string, unknown>, fault?: MockFault): Promise<Response> {
  return fetch(`${server.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(fault ? { [FAULT_HEADER]: JSON.stringify(fault) } : {}) },
    body: JSON.stringify({ model: 'qwen3:8b', messages: [{ role: 'user', content: 'Weather in Toronto?' }], ...body }),
  });
}

const toolTurn: MockTurn = {
  content: [
    { type: 'thinking', thinking: 'I should call the tool.' },
    { type: 'text', text: 'One moment.' },
    { type: 'tool_call', id: 'call_w', name: 'get_weather', input: { city: 'Toronto' } },
  ],
  usage: { input: 60, output: 25, cacheRead: 10 },
  chunking: { textDelta: 4 },
};

describe('Ollama /api/chat over HTTP', () => {
  it('streams NDJSON by default, with thinking, content, a whole tool call and a done line', async () => {
    server.enqueue(toolTurn);
    const response = await chat({});
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = parseNdjson(await response.text());
    expect(
      lines
        .map((line) => at(line, 'message', 'thinking'))
        .filter(Boolean)
        .join(''),
    ).toBe('I should call the tool.');
    expect(lines.map((line) => at(line, 'message', 'content')).join('')).toBe('One moment.');
    expect(lines.map((line) => at(line, 'message', 'tool_calls')).filter(Boolean)).toEqual([
      [{ id: 'call_w', function: { index: 0, name: 'get_weather', arguments: { city: 'Toronto' } } }],
    ]);
    expect(lines.map((line) => at(line, 'done'))).toEqual([...Array(lines.length - 1).fill(false), true]);
    expect(lines.at(-1)).toMatchObject({
      model: 'qwen3:8b',
      done_reason: 'stop',
      prompt_eval_count: 50,
      eval_count: 25,
    });
  });

  it('answers stream: false with one JSON object', async () => {
    server.enqueue({ text: 'It is sunny.', stopReason: 'max_tokens', usage: { input: 9, output: 4 } });
    const response = await chat({ stream: false });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      model: 'qwen3:8b',
      message: { role: 'assistant', content: 'It is sunny.' },
      done: true,
      done_reason: 'length',
      prompt_eval_count: 9,
      eval_count: 4,
    });
  });

  it('answers errors with {"error": "..."} and the status', async () => {
    server.enqueue({ text: 'after the errors' });
    const missing = await chat({ stream: false }, { kind: 'http_error', error: 'not_found' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "model 'qwen3:8b' not found" });
    const busy = await chat({ stream: false }, { kind: 'http_error', error: 'overloaded', retryAfterSeconds: 1 });
    expect([busy.status, busy.headers.get('retry-after')]).toEqual([503, '1']);
    expect(at(await busy.json(), 'error')).toContain('server busy');
    const retry = await chat({ stream: false });
    expect(at(await retry.json(), 'message', 'content')).toBe('after the errors');
  });

  it('ends a mid-stream error with a bare {error} line and no done line', async () => {
    server.enqueue({ ...toolTurn, fault: { kind: 'mid_stream_error', afterEvents: 2, error: 'server' } });
    const lines = parseNdjson(await (await chat({})).text());
    expect(lines).toHaveLength(3);
    expect(lines[2]).toEqual({ error: 'an error was encountered while running the model' });
    expect(lines.some((line) => at(line, 'done') === true)).toBe(false);
  });

  it('leaves out the done line when truncated', async () => {
    server.enqueue({ ...toolTurn, fault: { kind: 'truncate' } });
    const lines = parseNdjson(await (await chat({})).text());
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.every((line) => at(line, 'done') === false)).toBe(true);
  });
});
