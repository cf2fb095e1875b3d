import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { loopbackServers } from '../test/loopback-server.js';
import { createHttpAgent } from './http-agent.js';
import { createProviderFetch } from './provider-fetch.js';
import {
  readNdjson,
  readNdjsonBatches,
  readServerSentEventBatches,
  readServerSentEvents,
} from './read-event-stream.js';

const listen = loopbackServers();
const fetch = createProviderFetch({ dispatcher: createHttpAgent() });

function body(response: Response): AsyncIterable<Uint8Array> {
  if (response.body === null) throw new Error('The loopback server sent no body.');
  return response.body;
}

describe('readServerSentEvents', () => {
  it('reads events written in awkward pieces by a real server, reporting comments separately', async () => {
    const bytes = Buffer.from(': hello\r\n\r\nevent: a\r\ndata: ünï\r\n\r\ndata: line1\ndata: line2\n\n');
    const url = await listen(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let index = 0; index < bytes.length; index += 3) {
        response.write(bytes.subarray(index, index + 3));
        await new Promise((resolve) => setImmediate(resolve));
      }
      response.end();
    });
    const comments: string[] = [];
    const events = [];
    for await (const event of readServerSentEvents(body(await fetch(url)), {
      onComment: (text) => comments.push(text),
    })) {
      events.push([event.event, event.data]);
    }
    expect(events).toEqual([
      ['a', 'ünï'],
      ['message', 'line1\nline2'],
    ]);
    expect(comments).toEqual(['hello']);
  });

  it('cancels the body when the consumer stops early', async () => {
    let closed: Promise<unknown> = Promise.resolve();
    const url = await listen((_request, response) => {
      closed = once(response, 'close');
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n');
    });
    for await (const event of readServerSentEvents(body(await fetch(url)))) {
      expect(event.data).toBe('first');
      break;
    }
    await closed;
  });
});

describe('readNdjson', () => {
  it('reads values from a real server and reports invalid lines', async () => {
    const url = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      response.write('{"message":{"content":"Hel');
      response.write('lo"}}\nnot json\n');
      response.end('{"done":true}');
    });
    const invalid: string[] = [];
    const values = [];
    for await (const value of readNdjson(body(await fetch(url)), { onInvalidLine: ({ line }) => invalid.push(line) })) {
      values.push(value);
    }
    expect(values).toEqual([{ message: { content: 'Hello' } }, { done: true }]);
    expect(invalid).toEqual(['not json']);
  });
});

describe('batched readers', () => {
  it('yields one array of SSE events per network chunk, an empty one for a chunk of keep-alives, and loses nothing across splits', async () => {
    async function* body() {
      yield 'data: one\n\ndata: tw';
      yield 'o\n\n';
      yield ': keep-alive\n\n';
      yield 'event: x\ndata: thr';
      yield 'ee\n\ndata: four\n\n';
    }
    const batches: string[][] = [];
    for await (const batch of readServerSentEventBatches(body())) batches.push(batch.map((event) => event.data));
    expect(batches).toEqual([['one'], ['two'], [], ['three', 'four']]);
  });

  it('yields one array of NDJSON values per chunk and reports invalid lines', async () => {
    async function* body() {
      yield '{"a":1}\n{"a":';
      yield '2}\nnot json\n{"a":3}';
    }
    const invalid: string[] = [];
    const batches: unknown[][] = [];
    for await (const batch of readNdjsonBatches(body(), { onInvalidLine: ({ line }) => invalid.push(line) })) {
      batches.push(batch);
    }
    expect(batches).toEqual([[{ a: 1 }], [{ a: 2 }], [{ a: 3 }]]);
    expect(invalid).toEqual(['not json']);
  });
});
