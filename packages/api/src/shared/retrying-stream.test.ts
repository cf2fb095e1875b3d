import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamEvent } from '../spec/stream-event.js';
import { type BatchSink, type BatchSource, START_BATCHES } from './batch-source.js';
import { decodeSseStream } from './decode-sse-stream.js';
import { createHttpAgent } from './http-agent.js';
import type { RetryEvent } from './retry-policy.js';
import { sendStreamRequest } from './send-stream-request.js';
import { type StreamWithRetriesOptions, streamWithRetries } from './stream-with-retries.js';
import { createUsage } from './usage.js';

// The push path of `streamWithRetries`: sources that are `BatchSource`s (what `decodeSseStream`
// returns, what every SSE adapter hands it) deliver batches from the body's `data` callback.

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

const servers: Server[] = [];
const agent = createHttpAgent();

async function listen(handler: RequestListener): Promise<{ url: string; connections: () => number }> {
  const server = createServer(handler);
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A minimal SSE adapter as the real ones are built: undici body, `decodeSseStream`, a push source. */
function openPush(url: string, opened: BatchSource[] = []) {
  return async (_attempt: number, signal: AbortSignal): Promise<BatchSource> => {
    const response = await sendStreamRequest({ providerId: 'loop', url, body: {}, signal, dispatcher: agent });
    const source = decodeSseStream(response.body, {
      event: (type, data, out) => {
        if (type === 'start') out.push(start);
        else if (type === 'text') out.push(textStart, delta(data), textEnd);
        else if (type === 'end') out.push(end);
      },
    });
    opened.push(source);
    return source;
  };
}

const SSE = { 'content-type': 'text/event-stream' };

describe('streamWithRetries over a push source (loopback server)', () => {
  it('delivers a whole stream, and drains the body after message-end so the connection is reused', async () => {
    const server = await listen((_request, response) => {
      response.writeHead(200, SSE);
      response.write('event: start\ndata: {}\n\nevent: text\ndata: Hi\n\n');
      setTimeout(() => response.write('event: end\ndata: {}\n\n'), 5);
      // Something after the terminal event, and the end of the body later still.
      setTimeout(() => response.end('event: text\ndata: after the end\n\n'), 30);
    });
    const opened: BatchSource[] = [];
    for (let round = 0; round < 3; round += 1) {
      const events = await collect(streamWithRetries(openPush(server.url, opened), noSleep));
      expect(types(events)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'message-end']);
      // The next request waits for the drained connection to go back to the pool.
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    expect(opened).toHaveLength(3);
    expect(server.connections()).toBe(1);
  });

  it('retries a reset before content; after content a reset is one terminal network error', async () => {
    let requests = 0;
    const retries: RetryEvent[] = [];
    const server = await listen((_request, response) => {
      requests += 1;
      response.writeHead(200, SSE);
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
    const options = { ...noSleep, onRetry: (event: RetryEvent) => retries.push(event) };
    const first = await collect(streamWithRetries(openPush(server.url), options));
    expect(types(first)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'message-end']);
    expect(requests).toBe(2);
    expect(retries.map((retry) => retry.error.reason)).toEqual(['network']);
    const second = await collect(streamWithRetries(openPush(server.url), options));
    expect(types(second)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'error:network']);
    expect(requests).toBe(3);
  });

  it('a body that ends without message-end is a network failure (retried before content)', async () => {
    let requests = 0;
    const server = await listen((_request, response) => {
      requests += 1;
      response.writeHead(200, SSE);
      response.end(
        requests === 1 ? 'event: start\ndata: {}\n\n' : 'event: start\ndata: {}\n\nevent: end\ndata: {}\n\n',
      );
    });
    const events = await collect(streamWithRetries(openPush(server.url), noSleep));
    expect(types(events)).toEqual(['message-start', 'message-end']);
    expect(requests).toBe(2);
  });

  it('content then silence is an idle stall that cuts the connection', async () => {
    let closed: Promise<unknown> = Promise.resolve();
    const server = await listen((_request, response) => {
      closed = once(response, 'close');
      response.writeHead(200, SSE);
      response.write('event: start\ndata: {}\n\nevent: text\ndata: Hi\n\n');
    });
    const started = Date.now();
    const events = await collect(
      streamWithRetries(openPush(server.url), { ...noSleep, stall: { firstByteTimeoutMs: 2_000, idleTimeoutMs: 150 } }),
    );
    expect(types(events)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'error:stream_stall']);
    expect(events.at(-1)?.type === 'error' && events.at(-1)).toMatchObject({
      error: { stallKind: 'idle', timeoutMs: 150 },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await closed;
  });

  it('pings keep a silent stream alive past the idle timeout; pings alone stall as keep-alive-only', async () => {
    let requests = 0;
    const server = await listen((request, response) => {
      requests += 1;
      response.writeHead(200, SSE);
      response.write('event: start\ndata: {}\n\n');
      let sent = 0;
      const timer = setInterval(() => {
        sent += 1;
        if (requests === 1 && sent === 12) {
          clearInterval(timer);
          response.end('event: text\ndata: Hello\n\nevent: end\ndata: {}\n\n');
        } else response.write(': keep-alive\n\n');
      }, 50);
      request.socket.on('close', () => clearInterval(timer));
    });
    // 600 ms of pings is longer than the idle timeout, shorter than the keep-alive-only one.
    const stall = { firstByteTimeoutMs: 2_000, idleTimeoutMs: 300, keepAliveTimeoutMs: 1_000 };
    const alive = await collect(streamWithRetries(openPush(server.url), { ...noSleep, stall }));
    expect(types(alive)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'message-end']);
    const pingsOnly = await collect(streamWithRetries(openPush(server.url), { ...noSleep, maxRetries: 0, stall }));
    expect(types(pingsOnly)).toEqual(['error:stream_stall']);
    expect(pingsOnly[0]?.type === 'error' && pingsOnly[0].error).toMatchObject({ stallKind: 'keep-alive-only' });
  });

  it("the caller's abort ends the stream with an aborted error at once and cuts the request", async () => {
    let closed: Promise<unknown> = Promise.resolve();
    const server = await listen((_request, response) => {
      closed = once(response, 'close');
      response.writeHead(200, SSE);
      response.write('event: start\ndata: {}\n\nevent: text\ndata: Hi\n\n');
    });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    for await (const event of streamWithRetries(openPush(server.url), { ...noSleep, signal: controller.signal })) {
      events.push(event);
      if (event.type === 'text-end') setTimeout(() => controller.abort(), 10);
    }
    expect(types(events)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'error:aborted']);
    await closed;
  });

  it('a consumer that stops early aborts the attempt and cuts the connection', async () => {
    let closed: Promise<unknown> = Promise.resolve();
    let attemptSignal: AbortSignal | undefined;
    const server = await listen((_request, response) => {
      closed = once(response, 'close');
      response.writeHead(200, SSE);
      response.write('event: start\ndata: {}\n\nevent: text\ndata: a\n\nevent: text\ndata: b\n\n');
    });
    const open = openPush(server.url);
    for await (const event of streamWithRetries((attempt, signal) => {
      attemptSignal = signal;
      return open(attempt, signal);
    }, noSleep)) {
      if (event.type === 'text-delta') break;
    }
    expect(attemptSignal?.aborted).toBe(true);
    await closed;
  });
});

/** A push source that delivers `batches` at once when started and records the flow control it gets. */
function scriptedSource(batches: readonly (readonly StreamEvent[])[], calls: string[]): BatchSource {
  return {
    [START_BATCHES](sink: BatchSink) {
      queueMicrotask(() => {
        for (const batch of batches) sink.batch(batch);
        sink.end();
      });
      return {
        pause: () => calls.push('pause'),
        resume: () => calls.push('resume'),
        cancel: () => calls.push('cancel'),
      };
    },
    [Symbol.asyncIterator]() {
      throw new Error('a push source is not pulled by streamWithRetries');
    },
  };
}

describe('streamWithRetries over a push source (flow control)', () => {
  it('pauses the source while the caller is far behind and resumes it once the queue is drained', async () => {
    const calls: string[] = [];
    const deltas = Array.from({ length: 6_000 }, (_, index) => delta(String(index)));
    const batches = [
      [start, textStart],
      ...Array.from({ length: 60 }, (_, index) => deltas.slice(index * 100, (index + 1) * 100)),
      [textEnd, end],
    ];
    const events = streamWithRetries(async () => scriptedSource(batches, calls), noSleep);
    const first = await events.next();
    expect(first.value?.type).toBe('message-start');
    // Let the source push everything while the caller holds its first event.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls[0]).toBe('pause');
    const rest = await collect(events);
    expect(
      rest.filter((event) => event.type === 'text-delta').map((event) => event.type === 'text-delta' && event.delta),
    ).toEqual(deltas.map((event) => event.type === 'text-delta' && event.delta));
    expect(types(rest).at(-1)).toBe('message-end');
    expect(calls).toContain('resume');
  });

  it('a push source is started once per attempt, and a stale attempt cannot deliver after a retry', async () => {
    const sinks: BatchSink[] = [];
    const calls: string[] = [];
    const retries: RetryEvent[] = [];
    const source: BatchSource = {
      [START_BATCHES](sink) {
        sinks.push(sink);
        queueMicrotask(() => {
          if (sinks.length === 1) sink.fail(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
          else {
            // The first attempt's sink is dead: nothing it delivers reaches the caller.
            sinks[0]?.batch([start, delta('stale')]);
            sink.batch([start, textStart, delta('fresh'), textEnd, end]);
          }
        });
        return {
          pause: () => calls.push('pause'),
          resume: () => calls.push('resume'),
          cancel: () => calls.push('cancel'),
        };
      },
      [Symbol.asyncIterator]() {
        throw new Error('not pulled');
      },
    };
    const events = await collect(
      streamWithRetries(async () => source, { ...noSleep, onRetry: (event) => retries.push(event) }),
    );
    expect(sinks).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(events.filter((event) => event.type === 'text-delta')).toEqual([delta('fresh')]);
    expect(calls[0]).toBe('cancel');
  });

  it('the drain after message-end is cut after the limit when the body never ends', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const calls: string[] = [];
      let attemptSignal: AbortSignal | undefined;
      const source: BatchSource = {
        [START_BATCHES](sink) {
          queueMicrotask(() => sink.batch([start, end]));
          return {
            pause: () => calls.push('pause'),
            resume: () => calls.push('resume'),
            cancel: () => calls.push('cancel'),
          };
        },
        [Symbol.asyncIterator]() {
          throw new Error('not pulled');
        },
      };
      const events = await collect(
        streamWithRetries(
          async (_attempt, signal) => {
            attemptSignal = signal;
            return source;
          },
          { ...noSleep, stall: false },
        ),
      );
      expect(types(events)).toEqual(['message-start', 'message-end']);
      expect(attemptSignal?.aborted).toBe(false);
      expect(calls).not.toContain('cancel');
      await vi.advanceTimersByTimeAsync(2_001);
      expect(attemptSignal?.aborted).toBe(true);
      expect(calls).toContain('cancel');
    } finally {
      vi.useRealTimers();
    }
  });
});
