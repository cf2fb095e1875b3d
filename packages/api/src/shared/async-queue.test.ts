import { describe, expect, it } from 'vitest';
import { createAsyncQueue } from './async-queue.js';

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of iterable) values.push(value);
  return values;
}

describe('createAsyncQueue', () => {
  it('buffers values pushed before the consumer asks, then ends', async () => {
    const queue = createAsyncQueue<number>();
    queue.push(1);
    queue.push(2);
    queue.end();
    queue.push(3);
    expect(await collect(queue)).toEqual([1, 2]);
    expect(queue.closed).toBe(true);
  });

  it('delivers values pushed while the consumer waits', async () => {
    const queue = createAsyncQueue<string>();
    const result = collect(queue);
    await Promise.resolve();
    queue.push('a');
    setTimeout(() => {
      queue.push('b');
      queue.end();
    }, 1);
    expect(await result).toEqual(['a', 'b']);
  });

  it('delivers buffered values before the failure', async () => {
    const queue = createAsyncQueue<number>();
    queue.push(1);
    queue.fail(new Error('boom'));
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const value of queue) seen.push(value);
      })(),
    ).rejects.toThrow('boom');
    expect(seen).toEqual([1]);
  });

  it('calls onCancel once when the consumer stops early and ignores later pushes', async () => {
    let cancelled = 0;
    const queue = createAsyncQueue<number>({ onCancel: () => (cancelled += 1) });
    queue.push(1);
    queue.push(2);
    for await (const value of queue) {
      expect(value).toBe(1);
      break;
    }
    queue.push(3);
    expect(cancelled).toBe(1);
    expect(queue.closed).toBe(true);
  });

  it('keeps order across many values (the buffer compacts without losing any)', async () => {
    const queue = createAsyncQueue<number>();
    const total = 5_000;
    const result = collect(queue);
    for (let index = 0; index < total; index += 1) queue.push(index);
    queue.end();
    const values = await result;
    expect(values.length).toBe(total);
    expect(values.every((value, index) => value === index)).toBe(true);
  });

  it('refuses a second iteration', () => {
    const queue = createAsyncQueue<number>();
    queue[Symbol.asyncIterator]();
    expect(() => queue[Symbol.asyncIterator]()).toThrow('only once');
  });
});
