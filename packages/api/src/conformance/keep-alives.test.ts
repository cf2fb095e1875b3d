import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeEventStreamMessage } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RetryEvent } from '../shared/retry-policy.js';
import type { StallOptions } from '../shared/stall-timeouts.js';
import { isStreamStallError } from '../spec/llm-error-classes.js';
import type { StreamEvent } from '../spec/stream-event.js';
import { ADAPTERS } from '../test/conformance-adapters.js';
import { collectEvents, expectWellFormed } from '../test/stream-contract.js';

// Keep-alives against every adapter that can receive them, over real HTTP on loopback: a model that
// reasons silently while its server sends keep-alives (Anthropic `ping` events, SSE comments such as
// OpenRouter's, Responses `keepalive` events, Cohere's blank data) must not be declared stalled, while
// a server that sends nothing but keep-alives still stalls, and half an event is no keep-alive.

type Frame = string | Uint8Array;

/** How one adapter's wire answers "Hello world": the keep-alive, the frames up to the first delta, the rest. */
interface WireCase {
  adapter: string;
  keepAlive: Frame;
  head: Frame[];
  tail: Frame[];
}

const sse = (data: unknown, event?: string): string =>
  `${event === undefined ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
const anthropic = (data: { type: string } & Record<string, unknown>) => sse(data, data.type);
const responses = (data: { type: string } & Record<string, unknown>) => sse(data, data.type);
const bedrock = (eventType: string, payload: unknown): Uint8Array =>
  encodeEventStreamMessage({
    headers: { ':message-type': 'event', ':event-type': eventType, ':content-type': 'application/json' },
    payload: new TextEncoder().encode(JSON.stringify(payload)),
  });
const chatChunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
  sse({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  });
const geminiChunk = (text: string, extra: Record<string, unknown> = {}) =>
  sse({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...extra }], modelVersion: 'g' });

const CASES: WireCase[] = [
  {
    adapter: 'anthropic-messages',
    keepAlive: anthropic({ type: 'ping' }),
    head: [
      anthropic({
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          usage: { input_tokens: 5 },
        },
      }),
      anthropic({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      anthropic({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } }),
    ],
    tail: [
      anthropic({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' world' } }),
      anthropic({ type: 'content_block_stop', index: 0 }),
      anthropic({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }),
      anthropic({ type: 'message_stop' }),
    ],
  },
  {
    adapter: 'openai-chat',
    keepAlive: ': OPENROUTER PROCESSING\n\n',
    head: [chatChunk({ role: 'assistant', content: 'Hello' })],
    tail: [
      chatChunk({ content: ' world' }),
      chatChunk({}, 'stop', { usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } }),
      sse('[DONE]'),
    ],
  },
  {
    adapter: 'openai-responses',
    keepAlive: responses({ type: 'keepalive', sequence_number: 0 }),
    head: [
      responses({
        type: 'response.created',
        response: { id: 'resp_1', model: 'm', status: 'in_progress', output: [], usage: null },
      }),
      responses({
        type: 'response.output_item.added',
        output_index: 0,
        item: { id: 'msg_1', type: 'message', role: 'assistant', content: [] },
      }),
      responses({
        type: 'response.content_part.added',
        item_id: 'msg_1',
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', text: '' },
      }),
      responses({
        type: 'response.output_text.delta',
        item_id: 'msg_1',
        output_index: 0,
        content_index: 0,
        delta: 'Hello',
      }),
    ],
    tail: [
      responses({
        type: 'response.output_text.delta',
        item_id: 'msg_1',
        output_index: 0,
        content_index: 0,
        delta: ' world',
      }),
      responses({ type: 'response.content_part.done', item_id: 'msg_1', output_index: 0, content_index: 0 }),
      responses({
        type: 'response.output_item.done',
        output_index: 0,
        item: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Hello world' }],
        },
      }),
      responses({
        type: 'response.completed',
        response: { id: 'resp_1', status: 'completed', usage: { input_tokens: 5, output_tokens: 2 } },
      }),
    ],
  },
  {
    adapter: 'cohere-v2',
    // Blank data, which Cohere-compatible servers send to keep the connection open.
    keepAlive: 'data: \n\n',
    head: [
      sse({ id: 'c1', type: 'message-start', delta: { message: { role: 'assistant', content: [] } } }, 'message-start'),
      sse(
        { type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } },
        'content-start',
      ),
      sse({ type: 'content-delta', index: 0, delta: { message: { content: { text: 'Hello' } } } }, 'content-delta'),
    ],
    tail: [
      sse({ type: 'content-delta', index: 0, delta: { message: { content: { text: ' world' } } } }, 'content-delta'),
      sse({ type: 'content-end', index: 0 }, 'content-end'),
      sse(
        {
          type: 'message-end',
          delta: { finish_reason: 'COMPLETE', usage: { tokens: { input_tokens: 5, output_tokens: 2 } } },
        },
        'message-end',
      ),
    ],
  },
  {
    adapter: 'gemini',
    keepAlive: ': keep-alive\n\n',
    head: [geminiChunk('Hello')],
    tail: [
      geminiChunk(' world', { finishReason: 'STOP' }).replace(
        '"modelVersion"',
        '"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":2,"totalTokenCount":7},"modelVersion"',
      ),
    ],
  },
  {
    // Bedrock defines no keep-alive; a complete frame the adapter shows nothing for counts as one.
    adapter: 'bedrock-converse',
    keepAlive: bedrock('keepAliveProbe', {}),
    head: [
      bedrock('messageStart', { role: 'assistant' }),
      bedrock('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hello' } }),
    ],
    tail: [
      bedrock('contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' world' } }),
      bedrock('contentBlockStop', { contentBlockIndex: 0 }),
      bedrock('messageStop', { stopReason: 'end_turn' }),
      bedrock('metadata', { usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 }, metrics: { latencyMs: 1 } }),
    ],
  },
];

/** What the loopback server does with the next requests (the last plan repeats). */
type Plan = (response: ServerResponse, wire: WireCase, closed: () => boolean) => Promise<void>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Keep-alives every `everyMs` for `forMs` (or until the client goes away). */
async function keepAlives(
  response: ServerResponse,
  frame: Frame,
  everyMs: number,
  forMs: number,
  closed: () => boolean,
) {
  const until = Date.now() + forMs;
  while (Date.now() < until && !closed()) {
    response.write(frame);
    await sleep(everyMs);
  }
}

/**
 * Silent reasoning with keep-alives every 50 ms: 600 ms before any event, 900 ms after the first delta, both
 * longer than the 400 ms timeouts (a margin of 350 ms per gap, so a loaded CI machine does not stall them).
 */
const aliveThenContent: Plan = async (response, wire, closed) => {
  await keepAlives(response, wire.keepAlive, 50, 600, closed);
  for (const frame of wire.head) response.write(frame);
  await keepAlives(response, wire.keepAlive, 50, 900, closed);
  for (const frame of wire.tail) response.write(frame);
  response.end();
};

/** A server that sends nothing but keep-alives. */
const onlyKeepAlives: Plan = async (response, wire, closed) => {
  await keepAlives(response, wire.keepAlive, 50, 60_000, closed);
};

/**
 * The first delta, a keep-alive, then half of the next frame and silence, except for one more byte
 * of that frame every 50 ms (never its last): bytes that complete no frame are no keep-alive.
 */
const halfAFrame: Plan = async (response, wire, closed) => {
  for (const frame of wire.head) response.write(frame);
  await sleep(30);
  response.write(wire.keepAlive);
  await sleep(30);
  const next = wire.tail[0] as Frame;
  const bytes = typeof next === 'string' ? new TextEncoder().encode(next) : next;
  let sent = bytes.length >> 1;
  response.write(bytes.subarray(0, sent));
  while (!closed() && sent < bytes.length - 1) {
    await sleep(50);
    response.write(bytes.subarray(sent, sent + 1));
    sent += 1;
  }
  while (!closed()) await sleep(20);
};

let plan: Plan = aliveThenContent;
let requests = 0;
let wire: WireCase = CASES[0] as WireCase;
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    requests += 1;
    let isClosed = false;
    response.on('close', () => {
      isClosed = true;
    });
    response.writeHead(200, {
      'content-type': wire.adapter === 'bedrock-converse' ? 'application/vnd.amazon.eventstream' : 'text/event-stream',
    });
    response.flushHeaders();
    void plan(response, wire, () => isClosed).catch(() => undefined);
  });
});
let url = '';

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  requests = 0;
});

const request = { model: 'm', maxOutputTokens: 64, messages: [{ role: 'user' as const, content: 'Hi' }] };

async function run(wireCase: WireCase, stall: StallOptions, maxRetries: number) {
  wire = wireCase;
  const adapter = ADAPTERS.find((candidate) => candidate.name === wireCase.adapter);
  if (adapter === undefined) throw new Error(`No adapter ${wireCase.adapter}`);
  const retries: RetryEvent[] = [];
  const retry = { maxRetries, sleep: async () => undefined, onRetry: (event: RetryEvent) => retries.push(event) };
  const events = await collectEvents(adapter.create(url, { retry, stall }).streamMessage(request));
  expectWellFormed(events);
  return { events, retries };
}

const textOf = (events: StreamEvent[]) =>
  events.map((event) => (event.type === 'text-delta' ? event.delta : '')).join('');
const stallOf = (events: StreamEvent[]) => {
  const last = events.at(-1);
  return last?.type === 'error' && isStreamStallError(last.error) ? last.error : undefined;
};

describe.each(CASES)('keep-alives: $adapter', (wireCase) => {
  it('keep-alives for longer than the first-byte and idle timeouts, then content: no stall, no retry', async () => {
    plan = aliveThenContent;
    const { events, retries } = await run(wireCase, { firstByteTimeoutMs: 400, idleTimeoutMs: 400 }, 2);
    expect(events.at(-1)?.type).toBe('message-end');
    expect(textOf(events)).toBe('Hello world');
    expect(retries).toEqual([]);
    expect(requests).toBe(1);
  });

  it('only keep-alives past keepAliveTimeoutMs: a keep-alive-only stall, retried like any stall before content', async () => {
    plan = onlyKeepAlives;
    const started = Date.now();
    const { events, retries } = await run(
      wireCase,
      { firstByteTimeoutMs: 300, idleTimeoutMs: 300, keepAliveTimeoutMs: 800 },
      1,
    );
    expect(stallOf(events)).toMatchObject({ reason: 'stream_stall', stallKind: 'keep-alive-only', timeoutMs: 800 });
    expect(retries.map((retry) => isStreamStallError(retry.error) && retry.error.stallKind)).toEqual([
      'keep-alive-only',
    ]);
    expect(requests).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1550);
  });

  it('half a frame, then silence: an idle stall (a partial chunk is no keep-alive)', async () => {
    plan = halfAFrame;
    const { events, retries } = await run(wireCase, { firstByteTimeoutMs: 300, idleTimeoutMs: 300 }, 2);
    expect(textOf(events)).toBe('Hello');
    expect(stallOf(events)).toMatchObject({ stallKind: 'idle', timeoutMs: 300 });
    expect(retries).toEqual([]);
    expect(requests).toBe(1);
  });
});
