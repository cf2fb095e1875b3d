import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockFault, MockTurn } from '../script/types.js';
import { FAULT_HEADER, type MockServer, startMockServer } from '../server/mock-server.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../test/fixtures.js';
import { decodeEventStream, type EventStreamMessage } from './aws-eventstream.js';

// Bedrock Converse over real HTTP: plain fetch, the binary event stream decoded with both CRCs checked.

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

const MODEL = 'anthropic.claude-3-5-sonnet-20240620-v1:0';
const decoder = new TextDecoder();

function converse(stream: boolean, fault?: MockFault): Promise<Response> {
  return fetch(`${server.url}/model/${encodeURIComponent(MODEL)}/${stream ? 'converse-stream' : 'converse'}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20250101/us-east-1/bedrock/aws4_request, Signature=abc123',
      ...(fault ? { [FAULT_HEADER]: JSON.stringify(fault) } : {}),
    },
    body: JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'What is the weather in Paris?' }] }] }),
  });
}

async function frames(response: Response): Promise<EventStreamMessage[]> {
  return decodeEventStream(new Uint8Array(await response.arrayBuffer()));
}

/** The decoded events in the fixture format, `{"<eventType>": payload}`. */
function events(messages: EventStreamMessage[]): Record<string, unknown>[] {
  return messages.map((message) => ({
    [message.headers[':event-type'] ?? `!${message.headers[':exception-type']}`]: JSON.parse(
      decoder.decode(message.payload),
    ),
  }));
}

const toolTurn: MockTurn = {
  content: [
    { type: 'thinking', thinking: 'Weather means a tool call.', signature: 'sig-abc' },
    { type: 'text', text: 'Checking the weather.' },
    { type: 'tool_call', id: 'tooluse_abc', name: 'get_weather', input: { city: 'Paris', days: 2 } },
  ],
  usage: { input: 150, output: 40, cacheRead: 100, cacheWrite: 20 },
  chunking: { textDelta: 7, argumentsDelta: 5 },
};

describe('Bedrock ConverseStream over HTTP', () => {
  it('sends CRC-checked event-stream frames a client assembles into reasoning, text, a tool call and usage', async () => {
    server.enqueue(toolTurn);
    const response = await converse(true);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
    expect(response.headers.get('x-amzn-requestid')).toMatch(/\S+/);
    const messages = await frames(response);
    expect(messages.every((message) => message.headers[':message-type'] === 'event')).toBe(true);
    expect(messages.every((message) => message.headers[':content-type'] === 'application/json')).toBe(true);
    const decoded = events(messages);
    expect(decoded[0]).toEqual({ messageStart: { role: 'assistant' } });
    const deltas = (index: number): unknown[] =>
      decoded
        .map((event) => event.contentBlockDelta)
        .filter((delta) => at(delta, 'contentBlockIndex') === index)
        .map((delta) => at(delta, 'delta'));
    expect(
      deltas(0)
        .map((delta) => at(delta, 'reasoningContent', 'text') ?? '')
        .join(''),
    ).toBe('Weather means a tool call.');
    expect(deltas(0).at(-1)).toEqual({ reasoningContent: { signature: 'sig-abc' } });
    expect(
      deltas(1)
        .map((delta) => at(delta, 'text'))
        .join(''),
    ).toBe('Checking the weather.');
    expect(decoded.find((event) => event.contentBlockStart)).toEqual({
      contentBlockStart: {
        contentBlockIndex: 2,
        start: { toolUse: { toolUseId: 'tooluse_abc', name: 'get_weather' } },
      },
    });
    expect(
      JSON.parse(
        deltas(2)
          .map((delta) => at(delta, 'toolUse', 'input'))
          .join(''),
      ),
    ).toEqual({
      city: 'Paris',
      days: 2,
    });
    expect(decoded.slice(-2)).toEqual([
      { messageStop: { stopReason: 'tool_use' } },
      {
        metadata: {
          usage: {
            inputTokens: 30,
            outputTokens: 40,
            totalTokens: 190,
            cacheReadInputTokens: 100,
            cacheWriteInputTokens: 20,
          },
          metrics: { latencyMs: expect.any(Number) },
        },
      },
    ]);
  });

  it('ends a mid-stream error with a throttlingException frame and no messageStop', async () => {
    server.enqueue({ ...toolTurn, fault: { kind: 'mid_stream_error', afterEvents: 3, error: 'rate_limit' } });
    const messages = await frames(await converse(true));
    expect(messages).toHaveLength(4);
    const last = messages.at(-1);
    expect(last?.headers).toEqual({
      ':exception-type': 'throttlingException',
      ':content-type': 'application/json',
      ':message-type': 'exception',
    });
    expect(JSON.parse(decoder.decode(last?.payload))).toEqual({
      message: 'Too many requests, please wait before trying again.',
    });
  });

  it('leaves out messageStop and metadata when truncated, in whole frames', async () => {
    server.enqueue({ ...toolTurn, fault: { kind: 'truncate' } });
    const decoded = events(await frames(await converse(true)));
    expect(decoded.at(-1)).toEqual({ contentBlockStop: { contentBlockIndex: 2 } });
    expect(decoded.some((event) => event.messageStop || event.metadata)).toBe(false);
  });

  it('cut by a reset, leaves a frame a decoder reports as truncated', async () => {
    server.enqueue({ ...toolTurn, fault: { kind: 'reset', afterBytes: 300 } });
    const response = await converse(true);
    const reader = response.body?.getReader();
    const received: Uint8Array[] = [];
    await (async () => {
      try {
        for (;;) {
          const next = await reader?.read();
          if (!next || next.done) return;
          received.push(next.value);
        }
      } catch {
        // The reset: the bytes read so far are what the test looks at.
      }
    })();
    const bytes = new Uint8Array(Buffer.concat(received));
    expect(bytes.length).toBe(300);
    expect(() => decodeEventStream(bytes)).toThrow(/truncated/);
  });
});

describe('Bedrock Converse over HTTP', () => {
  it('answers with one Converse response whose tool input is a document', async () => {
    server.enqueue(toolTurn);
    const response = await converse(false);
    expect(response.status).toBe(200);
    const body: unknown = await response.json();
    expect(at(body, 'output', 'message', 'content')).toEqual([
      { reasoningContent: { reasoningText: { text: 'Weather means a tool call.', signature: 'sig-abc' } } },
      { text: 'Checking the weather.' },
      { toolUse: { toolUseId: 'tooluse_abc', name: 'get_weather', input: { city: 'Paris', days: 2 } } },
    ]);
    expect(at(body, 'stopReason')).toBe('tool_use');
    expect(at(body, 'usage', 'inputTokens')).toBe(30);
    expect(server.requests.at(-1)?.model).toBe(MODEL);
  });

  it('answers an error with x-amzn-ErrorType and a {message} body', async () => {
    server.enqueue({ text: 'after the throttle' });
    const response = await converse(false, { kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 4 });
    expect(response.status).toBe(429);
    expect(response.headers.get('x-amzn-errortype')).toBe(
      'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/',
    );
    expect(response.headers.get('retry-after')).toBe('4');
    expect(await response.json()).toEqual({ message: 'Too many requests, please wait before trying again.' });

    const tooLong = await converse(false, { kind: 'http_error', error: 'context_overflow' });
    expect([tooLong.status, tooLong.headers.get('x-amzn-errortype')?.split(':')[0]]).toEqual([
      400,
      'ValidationException',
    ]);
    expect(await tooLong.json()).toEqual({ message: 'Input is too long for requested model.' });

    const retry = await converse(false);
    expect(at(await retry.json(), 'output', 'message', 'content', 0, 'text')).toBe('after the throttle');
  });
});

describe.skipIf(!providerStreamsDir)(`Bedrock replay over HTTP (${fixturesSkipReason})`, () => {
  it('serves a recorded stream as frames that decode back to the recorded events', async () => {
    const path = providerStreamsDir ? fixture('bedrock-converse/amazon-bedrock-reasoning.chunks.txt') : '';
    server.enqueue({ replay: path });
    const recorded = (await readFile(path, 'utf8'))
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as unknown);
    const response = await converse(true);
    expect(response.status).toBe(200);
    expect(events(await frames(response))).toEqual(recorded);
  });
});
