import { once } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { createLlmError } from '../spec/create-llm-error.js';
import type { StreamEvent } from '../spec/stream-event.js';
import { loopbackServers } from '../test/loopback-server.js';
import { createHttpAgent } from './http-agent.js';
import { createProviderFetch } from './provider-fetch.js';
import type { RetryEvent } from './retry-policy.js';
import { sendRequest } from './send-request.js';
import { createSseParser } from './sse-parser.js';
import { type StreamEventBatch, type StreamWithRetriesOptions, streamWithRetries } from './stream-with-retries.js';
import { createUsage } from './usage.js';

const usage = createUsage({ inputTotal: 5, outputTotal: 2 });
const start: StreamEvent = { type: 'message-start', id: 'msg_1', model: 'm' };
const textStart: StreamEvent = { type: 'text-start', blockId: 't' };
const delta = (text: string): StreamEvent => ({ type: 'text-delta', blockId: 't', delta: text });
const textEnd: StreamEvent = { type: 'text-end', blockId: 't' };
const end: StreamEvent = { type: 'message-end', finishReason: { unified: 'stop', raw: 'end_turn' }, usage };
const noSleep: StreamWithRetriesOptions = { sleep: async () => undefined, random: () => 0 };

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const all: StreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const types = (events: StreamEvent[]) =>
  events.map((event) => (event.type === 'error' ? `error:${event.error.reason}` : event.type));

describe('streamWithRetries (scripted attempts)', () => {
  it('retries a failure before the first delta and emits nothing twice', async () => {
    const retries: RetryEvent[] = [];
    const attempts: number[] = [];
    const events = await collect(
      streamWithRetries(
        async function* (attempt) {
          attempts.push(attempt);
          yield start;
          yield textStart;
          if (attempt === 0) yield { type: 'error', error: createLlmError({ reason: 'overloaded', message: 'busy' }) };
          yield delta('Hello');
          yield textEnd;
          yield end;
        },
        { ...noSleep, onRetry: (event) => retries.push(event) },
      ),
    );
    expect(attempts).toEqual([0, 1]);
    expect(types(events)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'message-end']);
    expect(retries.map((event) => [event.attempt, event.error.reason])).toEqual([[1, 'overloaded']]);
  });

  it('turns a failure after the first delta into one terminal error event, without retrying', async () => {
    let opened = 0;
    const events = await collect(
      streamWithRetries(async function* () {
        opened += 1;
        yield start;
        yield textStart;
        yield delta('Hel');
        throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
      }, noSleep),
    );
    expect(opened).toBe(1);
    expect(types(events)).toEqual(['message-start', 'text-start', 'text-delta', 'error:network']);
  });

  it('treats a stream that ends without message-end as a network failure (retried only before content)', async () => {
    let opened = 0;
    const events = await collect(
      streamWithRetries(async function* (attempt) {
        opened += 1;
        yield start;
        if (attempt === 0) return;
        yield textStart;
        yield delta('ok');
      }, noSleep),
    );
    expect(opened).toBe(2);
    expect(types(events)).toEqual(['message-start', 'text-start', 'text-delta', 'error:network']);
    const last = events.at(-1);
    expect(last?.type === 'error' && last.error.message).toContain('ended before the message was complete');
  });

  it('does not retry a non-retryable error, nor a wait longer than the cap', async () => {
    let opened = 0;
    const invalid = await collect(
      streamWithRetries(async function* () {
        opened += 1;
        yield { type: 'error', error: createLlmError({ reason: 'invalid_request', message: 'bad field' }) };
      }, noSleep),
    );
    expect(types(invalid)).toEqual(['error:invalid_request']);
    const tooLong = await collect(
      streamWithRetries(async function* () {
        opened += 1;
        yield {
          type: 'error',
          error: createLlmError({ reason: 'rate_limit', message: 'later', retryAfterMs: 3_600_000 }),
        };
      }, noSleep),
    );
    expect(types(tooLong)).toEqual(['error:rate_limit']);
    expect(opened).toBe(2);
  });

  it('gives up after maxRetries with the last error', async () => {
    let opened = 0;
    const events = await collect(
      streamWithRetries(
        () => {
          opened += 1;
          throw createLlmError({ reason: 'server', message: `failure ${opened}` });
        },
        { ...noSleep, maxRetries: 2 },
      ),
    );
    expect(opened).toBe(3);
    expect(events).toHaveLength(1);
    expect(events[0]?.type === 'error' && events[0].error.message).toBe('failure 3');
  });

  it('stops at message-end, ignores what follows, and reads the source to its end in the background', async () => {
    let closed = false;
    let readAfterEnd = false;
    const events = await collect(
      streamWithRetries(async function* () {
        try {
          yield start;
          yield end;
          readAfterEnd = true;
          yield delta('after the end');
        } finally {
          closed = true;
        }
      }, noSleep),
    );
    expect(types(events)).toEqual(['message-start', 'message-end']);
    // Draining the rest of the body lets the keep-alive connection be reused.
    await vi.waitFor(() => expect(closed).toBe(true));
    expect(readAfterEnd).toBe(true);
  });

  it('cuts a finished stream whose body never ends, after the drain limit', async () => {
    let attemptSignal: AbortSignal | undefined;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const events = await collect(
        streamWithRetries(
          async function* (_attempt, signal) {
            attemptSignal = signal;
            yield [start, end];
            await new Promise(() => undefined);
          },
          { ...noSleep, stall: false },
        ),
      );
      expect(types(events)).toEqual(['message-start', 'message-end']);
      expect(attemptSignal?.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(2_001);
      expect(attemptSignal?.aborted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes empty batches as keep-alives: never emitted, not content, not the end of the stream', async () => {
    const retries: RetryEvent[] = [];
    const events = await collect(
      streamWithRetries(
        async function* (attempt): AsyncGenerator<StreamEventBatch> {
          yield [];
          yield [start, textStart];
          yield [];
          if (attempt === 0) throw createLlmError({ reason: 'overloaded', message: 'busy' });
          yield [];
          yield [delta('Hello')];
          yield [];
          yield [textEnd, end];
        },
        { ...noSleep, onRetry: (event) => retries.push(event) },
      ),
    );
    // The keep-alives before the first delta did not commit the stream: the failure was retried.
    expect(retries.map((retry) => retry.error.reason)).toEqual(['overloaded']);
    expect(types(events)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'message-end']);
  });

  it('a stream of keep-alives that ends without message-end ended early (network, retried)', async () => {
    let attempts = 0;
    const events = await collect(
      streamWithRetries(
        async function* (): AsyncGenerator<StreamEventBatch> {
          attempts += 1;
          yield [];
          yield [start];
          yield [];
        },
        { ...noSleep, maxRetries: 1 },
      ),
    );
    expect(attempts).toBe(2);
    expect(types(events)).toEqual(['error:network']);
  });

  it("ends with an aborted error when the caller's signal fires, and aborts the attempt", async () => {
    const controller = new AbortController();
    let attemptSignal: AbortSignal | undefined;
    const stream = streamWithRetries(
      async function* (_attempt, signal) {
        attemptSignal = signal;
        yield start;
        yield textStart;
        yield delta('a');
        await new Promise(() => undefined);
      },
      { ...noSleep, signal: controller.signal },
    );
    const events: StreamEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expect(types(events)).toEqual(['message-start', 'text-start', 'text-delta', 'error:aborted']);
    expect(attemptSignal?.aborted).toBe(true);

    const already = await collect(streamWithRetries(async function* () {}, { signal: AbortSignal.abort() }));
    expect(types(already)).toEqual(['error:aborted']);
  });

  it('aborts the request when the consumer stops early', async () => {
    let attemptSignal: AbortSignal | undefined;
    for await (const event of streamWithRetries(async function* (_attempt, signal) {
      attemptSignal = signal;
      yield start;
      yield textStart;
      yield delta('a');
      yield delta('b');
    }, noSleep)) {
      if (event.type === 'text-delta') break;
    }
    expect(attemptSignal?.aborted).toBe(true);
  });
});

const listen = loopbackServers();
const fetch = createProviderFetch({ dispatcher: createHttpAgent() });

/**
 * A minimal adapter, batching like the real ones: `event: start|text|end` SSE events become stream
 * events, one batch per network chunk; a chunk of only `ping` events and comments is a keep-alive
 * (an empty batch).
 */
function openLoopback(url: string) {
  return async function* (_attempt: number, signal: AbortSignal): AsyncGenerator<StreamEventBatch> {
    const response = await sendRequest({ providerId: 'loop', url, body: {}, fetch, signal });
    if (response.body === null) throw new Error('The loopback server sent no body.');
    let out: StreamEvent[] = [];
    let framed = false;
    const parser = createSseParser({
      onComment: () => {
        framed = true;
      },
      onEvent: (event) => {
        framed = true;
        if (event.event === 'start') out.push(start);
        else if (event.event === 'text') out.push(textStart, delta(event.data), textEnd);
        else if (event.event === 'end') out.push(end);
      },
    });
    for await (const chunk of response.body) {
      parser.feed(chunk);
      if (out.length > 0) {
        yield out;
        out = [];
      } else if (framed) yield [];
      framed = false;
    }
  };
}

describe('streamWithRetries (loopback server)', () => {
  it('ends a stream that sends only pings with a keep-alive-only stall and closes the connection', async () => {
    let closed: Promise<unknown> = Promise.resolve();
    const url = await listen((request, response) => {
      closed = once(response, 'close');
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: start\ndata: {}\n\n');
      const timer = setInterval(() => response.write(': keep-alive\n\nevent: ping\ndata: {}\n\n'), 10);
      request.socket.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const events = await collect(
      streamWithRetries(openLoopback(url), {
        ...noSleep,
        maxRetries: 0,
        stall: { firstByteTimeoutMs: 2_000, idleTimeoutMs: 150, keepAliveTimeoutMs: 400 },
      }),
    );
    expect(types(events)).toEqual(['error:stream_stall']);
    expect(events[0]?.type === 'error' && events[0].error).toMatchObject({
      stallKind: 'keep-alive-only',
      timeoutMs: 400,
      providerId: undefined,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(Date.now() - started).toBeLessThan(5_000);
    await closed;
  });

  it('retries a first attempt of only pings (a keep-alive-only stall) and completes with the second', async () => {
    let requests = 0;
    const retries: RetryEvent[] = [];
    const url = await listen((request, response) => {
      requests += 1;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (requests === 1) {
        const timer = setInterval(() => response.write(': ping\n\n'), 10);
        request.socket.on('close', () => clearInterval(timer));
        return;
      }
      response.end('event: start\ndata: {}\n\nevent: text\ndata: Hello\n\nevent: end\ndata: {}\n\n');
    });
    const events = await collect(
      streamWithRetries(openLoopback(url), {
        ...noSleep,
        providerId: 'loop',
        stall: { firstByteTimeoutMs: 150, idleTimeoutMs: 150, keepAliveTimeoutMs: 300 },
        onRetry: (event) => retries.push(event),
      }),
    );
    expect(requests).toBe(2);
    expect(types(events)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'message-end']);
    expect(retries.map((retry) => retry.error)).toMatchObject([
      { reason: 'stream_stall', stallKind: 'keep-alive-only' },
    ]);
  });

  it('keeps a stream alive through pings for longer than the first-byte and idle timeouts: no stall, no retry', async () => {
    let requests = 0;
    const url = await listen((request, response) => {
      requests += 1;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      let sent = 0;
      const timer = setInterval(() => {
        sent += 1;
        // Pings for 600 ms, the start, pings for 700 ms more (silent reasoning), then the answer: both longer
        // than the 400 ms timeouts, with a margin of 350 ms per gap for a loaded CI machine.
        if (sent === 12) response.write('event: start\ndata: {}\n\n');
        else if (sent === 26) {
          clearInterval(timer);
          response.end('event: text\ndata: Hello\n\nevent: end\ndata: {}\n\n');
        } else response.write(sent % 2 === 0 ? ': keep-alive\n\n' : 'event: ping\ndata: {}\n\n');
      }, 50);
      request.socket.on('close', () => clearInterval(timer));
    });
    const retries: RetryEvent[] = [];
    const events = await collect(
      streamWithRetries(openLoopback(url), {
        ...noSleep,
        stall: { firstByteTimeoutMs: 400, idleTimeoutMs: 400 },
        onRetry: (event) => retries.push(event),
      }),
    );
    expect(types(events)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'message-end']);
    expect(retries).toEqual([]);
    expect(requests).toBe(1);
  });

  it('half an event, then silence (bytes that complete no frame), is an idle stall', async () => {
    const url = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: start\ndata: {}\n\n: keep-alive\n\n');
      setTimeout(() => response.write('event: text\ndata: Hel'), 30);
    });
    const events = await collect(
      streamWithRetries(openLoopback(url), {
        ...noSleep,
        maxRetries: 0,
        stall: { firstByteTimeoutMs: 150, idleTimeoutMs: 150 },
      }),
    );
    expect(types(events)).toEqual(['error:stream_stall']);
    expect(events[0]?.type === 'error' && events[0].error).toMatchObject({ stallKind: 'idle', timeoutMs: 150 });
  });

  it('retries a connection reset before content, but not after content reached the caller', async () => {
    let requests = 0;
    const url = await listen((_request, response) => {
      requests += 1;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (requests === 1) {
        response.write('event: start\ndata: {}\n\n');
        setTimeout(() => response.socket?.destroy(), 5);
      } else if (requests === 2) {
        response.end('event: start\ndata: {}\n\nevent: text\ndata: Hi\n\nevent: end\ndata: {}\n\n');
      } else {
        response.write('event: start\ndata: {}\n\nevent: text\ndata: partial\n\n');
        setTimeout(() => response.socket?.destroy(), 5);
      }
    });
    const first = await collect(streamWithRetries(openLoopback(url), noSleep));
    expect(types(first)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'message-end']);
    expect(requests).toBe(2);
    const second = await collect(streamWithRetries(openLoopback(url), noSleep));
    expect(types(second)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'error:network']);
    expect(requests).toBe(3);
  });

  it('retries a 529 answered before the stream started', async () => {
    let requests = 0;
    const url = await listen((_request, response) => {
      requests += 1;
      if (requests === 1) {
        response
          .writeHead(529, { 'retry-after': '0' })
          .end('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}');
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('event: start\ndata: {}\n\nevent: end\ndata: {}\n\n');
    });
    const events = await collect(streamWithRetries(openLoopback(url), noSleep));
    expect(types(events)).toEqual(['message-start', 'message-end']);
    expect(requests).toBe(2);
  });
});
