import type { RequestListener } from 'node:http';
import { request } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { loopbackServers } from '../test/loopback-server.js';
import { type BodyHandlers, readBody } from './body-reader.js';
import { createHttpAgent } from './http-agent.js';

const listen = loopbackServers();
const agent = createHttpAgent();

/** Handlers that record what they see, and resolve `settled` at the end or the first error. */
function recorder(options: { stopAt?: string; throwAt?: string } = {}) {
  const seen: string[] = [];
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const handlers: BodyHandlers = {
    chunk(chunk) {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      seen.push(text);
      if (options.throwAt !== undefined && text.includes(options.throwAt)) throw new Error(`bad ${text}`);
      return options.stopAt === undefined || !text.includes(options.stopAt);
    },
    end() {
      seen.push('<end>');
      settle();
    },
    error(error) {
      seen.push(`<error ${(error as Error).message}>`);
      settle();
    },
  };
  return { seen, handlers, settled };
}

/** A server writing `parts` with a pause between them, then ending (or cutting) the response. */
function writer(parts: readonly string[], finish: 'end' | 'cut' = 'end'): RequestListener {
  return async (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    for (const part of parts) {
      response.write(part);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (finish === 'end') response.end();
    else response.socket?.destroy();
  };
}

describe('readBody over an undici body (data callbacks)', () => {
  it('calls chunk once per network read in order, then end', async () => {
    const url = await listen(writer(['one', 'two', 'three']));
    const { body } = await request(url, { dispatcher: agent });
    const { seen, handlers, settled } = recorder();
    readBody(body, handlers);
    await settled;
    expect(seen).toEqual(['one', 'two', 'three', '<end>']);
  });

  it('reports a connection cut before the end as an error, never as an end', async () => {
    const url = await listen(writer(['one'], 'cut'));
    const { body } = await request(url, { dispatcher: agent });
    const { seen, handlers, settled } = recorder();
    readBody(body, handlers);
    await settled;
    expect(seen[0]).toBe('one');
    expect(seen).toHaveLength(2);
    expect(seen[1]).toMatch(/^<error /);
  });

  it('a throw from chunk stops reading, destroys the body and reaches error once', async () => {
    const url = await listen(writer(['one', 'two', 'three']));
    const { body } = await request(url, { dispatcher: agent });
    const { seen, handlers, settled } = recorder({ throwAt: 'two' });
    readBody(body, handlers);
    await settled;
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(seen).toEqual(['one', 'two', '<error bad two>']);
    expect(body.destroyed).toBe(true);
  });

  it('chunk returning false stops reading and destroys the body, with no end or error', async () => {
    const url = await listen(writer(['one', 'stop', 'three']));
    const { body } = await request(url, { dispatcher: agent });
    const { seen, handlers } = recorder({ stopAt: 'stop' });
    readBody(body, handlers);
    await vi.waitFor(() => expect(body.destroyed).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(seen).toEqual(['one', 'stop']);
  });

  it('pause holds further reads until resume', async () => {
    const url = await listen(writer(['one', 'two', 'three']));
    const { body } = await request(url, { dispatcher: agent });
    const { seen, handlers, settled } = recorder();
    const control = readBody(body, {
      ...handlers,
      chunk(chunk) {
        const more = handlers.chunk(chunk);
        if (seen.length === 1) control.pause();
        return more;
      },
    });
    await vi.waitFor(() => expect(seen).toEqual(['one']));
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(seen).toEqual(['one']);
    control.resume();
    await settled;
    expect(seen.join('')).toBe('onetwothree<end>');
  });

  it('cancel destroys the body and nothing more is called', async () => {
    const url = await listen(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('one');
      await new Promise((resolve) => setTimeout(resolve, 150));
      response.end('two');
    });
    const { body } = await request(url, { dispatcher: agent });
    const { seen, handlers } = recorder();
    const control = readBody(body, handlers);
    await vi.waitFor(() => expect(seen).toEqual(['one']));
    control.cancel();
    expect(body.destroyed).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(seen).toEqual(['one']);
  });
});

describe('readBody over any other async iterable (a pump)', () => {
  async function* parts(...values: string[]): AsyncGenerator<string> {
    for (const value of values) yield value;
  }

  it('calls chunk per item, then end; an iterator failure is an error', async () => {
    const ok = recorder();
    readBody(parts('a', 'b'), ok.handlers);
    await ok.settled;
    expect(ok.seen).toEqual(['a', 'b', '<end>']);

    const failing = recorder();
    readBody(
      (async function* () {
        yield 'a';
        throw new Error('cut');
      })(),
      failing.handlers,
    );
    await failing.settled;
    expect(failing.seen).toEqual(['a', '<error cut>']);
  });

  it('pauses between items and stops the iterator on cancel', async () => {
    let finished = false;
    const source = (async function* () {
      try {
        for (let index = 0; ; index += 1) yield `item${index}`;
      } finally {
        finished = true;
      }
    })();
    const { seen, handlers } = recorder();
    const control = readBody(source, {
      ...handlers,
      chunk(chunk) {
        handlers.chunk(chunk);
        if (seen.length === 2) control.pause();
        return true;
      },
    });
    await vi.waitFor(() => expect(seen).toEqual(['item0', 'item1']));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(seen).toEqual(['item0', 'item1']);
    control.cancel();
    await vi.waitFor(() => expect(finished).toBe(true));
    expect(seen).toEqual(['item0', 'item1']);
  });
});
