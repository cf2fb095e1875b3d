import { describe, expect, it } from 'vitest';
import { isAbortedError, isStreamStallError } from '../spec/llm-error-classes.js';
import { DEFAULT_STALL_OPTIONS, withStallTimeouts } from './stall-timeouts.js';

/** A source that yields the given items, then waits forever (until returned). */
function hangingSource<T>(items: T[], log: string[] = []): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      let index = 0;
      return {
        next: () =>
          index < items.length
            ? Promise.resolve({ value: items[index++] as T, done: false })
            : new Promise<IteratorResult<T>>(() => undefined),
        return: async () => {
          log.push('returned');
          return { value: undefined, done: true };
        },
      };
    },
  };
}

async function drain<T>(
  iterable: AsyncIterable<T>,
  onItem?: () => Promise<void>,
): Promise<{ items: T[]; error: unknown }> {
  const items: T[] = [];
  try {
    for await (const item of iterable) {
      items.push(item);
      await onItem?.();
    }
    return { items, error: undefined };
  } catch (error) {
    return { items, error };
  }
}

describe('withStallTimeouts', () => {
  it('fails with a first-byte stall, aborting the controller with the same error', async () => {
    const controller = new AbortController();
    const log: string[] = [];
    const { items, error } = await drain(
      withStallTimeouts(hangingSource([], log), {
        controller,
        firstByteTimeoutMs: 30,
        idleTimeoutMs: 1_000,
        providerId: 'acme',
      }),
    );
    expect(items).toEqual([]);
    expect(isStreamStallError(error)).toBe(true);
    expect(error).toMatchObject({ stallKind: 'first-byte', timeoutMs: 30, providerId: 'acme', isRetryable: true });
    expect(controller.signal.reason).toBe(error);
    expect(log).toEqual(['returned']);
  });

  it('fails with an idle stall after items stop coming', async () => {
    const controller = new AbortController();
    const { items, error } = await drain(
      withStallTimeouts(hangingSource([1, 2]), { controller, firstByteTimeoutMs: 1_000, idleTimeoutMs: 30 }),
    );
    expect(items).toEqual([1, 2]);
    expect(error).toMatchObject({ reason: 'stream_stall', stallKind: 'idle' });
    expect((error as Error).message).toContain('idleTimeoutMs');
  });

  it('does not count the time the consumer spends on an item', async () => {
    async function* source() {
      yield 'a';
      yield 'b';
      yield 'c';
    }
    const controller = new AbortController();
    const { items, error } = await drain(
      withStallTimeouts(source(), { controller, firstByteTimeoutMs: 40, idleTimeoutMs: 40 }),
      () => new Promise((resolve) => setTimeout(resolve, 80)),
    );
    expect(error).toBeUndefined();
    expect(items).toEqual(['a', 'b', 'c']);
    expect(controller.signal.aborted).toBe(false);
  });

  it('throws at once when the controller is aborted elsewhere, even if the source ignores it', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller left')), 10);
    const { error } = await drain(
      withStallTimeouts(hangingSource([1]), { controller, firstByteTimeoutMs: 0, idleTimeoutMs: 0 }),
    );
    expect(isAbortedError(error)).toBe(true);
  });

  it("defaults the keep-alive-only timer to the official SDKs' 10-minute request timeout", () => {
    expect(DEFAULT_STALL_OPTIONS).toEqual({
      firstByteTimeoutMs: 60_000,
      idleTimeoutMs: 30_000,
      keepAliveTimeoutMs: 600_000,
    });
  });

  it('passes items and completion through when timers are disabled', async () => {
    async function* source() {
      await new Promise((resolve) => setTimeout(resolve, 20));
      yield 1;
    }
    const controller = new AbortController();
    const { items, error } = await drain(
      withStallTimeouts(source(), { controller, firstByteTimeoutMs: 0, idleTimeoutMs: 0 }),
    );
    expect(items).toEqual([1]);
    expect(error).toBeUndefined();
  });
});

/** Yields `ping` every `everyMs` for `forMs`, then `content`, `rounds` times; then ends (or hangs). */
function pinging(everyMs: number, forMs: number, rounds: number, hang = false): AsyncIterable<string> {
  return {
    async *[Symbol.asyncIterator]() {
      for (let round = 0; round < rounds; round += 1) {
        const until = performance.now() + forMs;
        while (performance.now() < until) {
          await sleep(everyMs);
          yield 'ping';
        }
        yield 'content';
      }
      if (hang) await new Promise(() => undefined);
    },
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const isKeepAlive = (item: string) => item === 'ping';

describe('withStallTimeouts keep-alives', () => {
  it('a keep-alive restarts the first-item and idle waits: pings for longer than both, then content, no stall', async () => {
    const controller = new AbortController();
    const { items, error } = await drain(
      withStallTimeouts(pinging(20, 250, 2), { controller, firstByteTimeoutMs: 80, idleTimeoutMs: 80, isKeepAlive }),
    );
    expect(error).toBeUndefined();
    expect(items.filter((item) => item === 'content')).toHaveLength(2);
    expect(items.filter(isKeepAlive).length).toBeGreaterThan(10);
    expect(controller.signal.aborted).toBe(false);
  });

  it('only keep-alives for longer than keepAliveTimeoutMs is a keep-alive-only stall', async () => {
    const controller = new AbortController();
    const log: string[] = [];
    const pings: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => ({
        next: () => sleep(15).then(() => ({ value: 'ping', done: false })),
        return: async () => {
          log.push('returned');
          return { value: undefined, done: true };
        },
      }),
    };
    const started = performance.now();
    const { error } = await drain(
      withStallTimeouts(pings, {
        controller,
        firstByteTimeoutMs: 100,
        idleTimeoutMs: 100,
        keepAliveTimeoutMs: 200,
        isKeepAlive,
        providerId: 'acme',
      }),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
    expect(isStreamStallError(error)).toBe(true);
    expect(error).toMatchObject({
      stallKind: 'keep-alive-only',
      timeoutMs: 200,
      providerId: 'acme',
      isRetryable: true,
    });
    expect((error as Error).message).toContain('keepAliveTimeoutMs');
    expect(controller.signal.reason).toBe(error);
    expect(log).toEqual(['returned']);
  });

  it('content ends the keep-alive-only stretch: stretches shorter than keepAliveTimeoutMs never stall', async () => {
    const controller = new AbortController();
    const { items, error } = await drain(
      withStallTimeouts(pinging(20, 150, 4), {
        controller,
        firstByteTimeoutMs: 100,
        idleTimeoutMs: 100,
        keepAliveTimeoutMs: 300,
        isKeepAlive,
      }),
    );
    expect(error).toBeUndefined();
    expect(items.filter((item) => item === 'content')).toHaveLength(4);
  });

  it('after content, a stretch of keep-alives stalls as keep-alive-only, measured from that content', async () => {
    const controller = new AbortController();
    async function* source() {
      yield 'content';
      for (;;) {
        await sleep(15);
        yield 'ping';
      }
    }
    const { items, error } = await drain(
      withStallTimeouts(source(), {
        controller,
        firstByteTimeoutMs: 100,
        idleTimeoutMs: 100,
        keepAliveTimeoutMs: 250,
        isKeepAlive,
      }),
    );
    expect(items[0]).toBe('content');
    expect(error).toMatchObject({ stallKind: 'keep-alive-only', timeoutMs: 250 });
  });

  it('a keep-alive-only timer shorter than the idle one fires on time', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const { error } = await drain(
      withStallTimeouts(pinging(10, 60_000, 1), {
        controller,
        firstByteTimeoutMs: 5_000,
        idleTimeoutMs: 5_000,
        keepAliveTimeoutMs: 100,
        isKeepAlive,
      }),
    );
    expect(error).toMatchObject({ stallKind: 'keep-alive-only', timeoutMs: 100 });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('does not count the time the consumer spends on a keep-alive', async () => {
    async function* source() {
      for (let index = 0; index < 6; index += 1) yield 'ping';
      yield 'content';
    }
    const controller = new AbortController();
    const { items, error } = await drain(
      withStallTimeouts(source(), {
        controller,
        firstByteTimeoutMs: 60,
        idleTimeoutMs: 60,
        keepAliveTimeoutMs: 100,
        isKeepAlive,
      }),
      () => sleep(50),
    );
    expect(error).toBeUndefined();
    expect(items.at(-1)).toBe('content');
  });

  it('silence after keep-alives is still an idle (or first-byte) stall, not a keep-alive-only one', async () => {
    const controller = new AbortController();
    const { items, error } = await drain(
      withStallTimeouts(pinging(10, 50, 1, true), {
        controller,
        firstByteTimeoutMs: 100,
        idleTimeoutMs: 100,
        keepAliveTimeoutMs: 10_000,
        isKeepAlive,
      }),
    );
    expect(items.at(-1)).toBe('content');
    expect(error).toMatchObject({ stallKind: 'idle', timeoutMs: 100 });
  });

  it('keepAliveTimeoutMs 0 disables the keep-alive-only timer; without isKeepAlive every item is content', async () => {
    for (const options of [{ keepAliveTimeoutMs: 0, isKeepAlive }, { keepAliveTimeoutMs: 50 }]) {
      const controller = new AbortController();
      const { items, error } = await drain(
        withStallTimeouts(pinging(10, 250, 1), { controller, firstByteTimeoutMs: 100, idleTimeoutMs: 100, ...options }),
      );
      expect(error).toBeUndefined();
      expect(items.at(-1)).toBe('content');
    }
  });
});
