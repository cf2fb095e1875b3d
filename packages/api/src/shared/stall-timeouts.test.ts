import { describe, expect, it } from 'vitest';
import { isAbortedError, isStreamStallError } from '../spec/llm-error-classes.js';
import { withStallTimeouts } from './stall-timeouts.js';

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
