import { describe, expect, it } from 'vitest';
import { EventBuffer } from './event-buffer.js';

async function collect<T, R>(generator: AsyncGenerator<T, R>): Promise<{ events: T[]; value: R }> {
  const events: T[] = [];
  for (;;) {
    const next = await generator.next();
    if (next.done) return { events, value: next.value };
    events.push(next.value);
  }
}

describe('EventBuffer', () => {
  it('yields events pushed before and while the work runs, in order, then returns its value', async () => {
    const buffer = new EventBuffer<string>();
    buffer.push('before');
    const work = (async () => {
      buffer.push('start');
      await new Promise((resolve) => setImmediate(resolve));
      buffer.push('middle');
      await new Promise((resolve) => setImmediate(resolve));
      buffer.push('end');
      return 42;
    })();
    const { events, value } = await collect(buffer.drainWhile(work));
    expect(events).toEqual(['before', 'start', 'middle', 'end']);
    expect(value).toBe(42);
    expect(buffer.take()).toBeUndefined();
  });

  it('rethrows what the work rejected with, after the events it pushed', async () => {
    const buffer = new EventBuffer<string>();
    const work = (async () => {
      buffer.push('tried');
      await Promise.resolve();
      throw new Error('broken');
    })();
    const events: string[] = [];
    const drain = buffer.drainWhile(work);
    await expect(
      (async () => {
        for (;;) {
          const next = await drain.next();
          if (next.done) return next.value;
          events.push(next.value);
        }
      })(),
    ).rejects.toThrow('broken');
    expect(events).toEqual(['tried']);
  });

  it('reports watched work as busy until it settles, and hands its result over once', async () => {
    const buffer = new EventBuffer<number>();
    let finish!: (value: string) => void;
    const work = new Promise<string>((resolve) => {
      finish = resolve;
    });
    buffer.watch(work);
    expect(buffer.busy).toBe(true);
    const woken = buffer.wait();
    buffer.push(1);
    await woken;
    expect(buffer.take()).toEqual([1]);
    const settled = buffer.wait();
    finish('done');
    await settled;
    expect(buffer.busy).toBe(false);
    expect(buffer.result()).toBe('done');
    expect(buffer.result()).toBeUndefined();
  });

  it('counts work that reports by callback as busy until it settles, waking a waiter once', async () => {
    const buffer = new EventBuffer<number>();
    buffer.hold();
    expect(buffer.busy).toBe(true);
    const woken = buffer.wait();
    buffer.settle(['result'], false);
    await woken;
    expect(buffer.busy).toBe(false);
    expect(buffer.result()).toEqual(['result']);
    buffer.hold();
    buffer.settle(new Error('failed'), true);
    expect(buffer.busy).toBe(false);
    expect(() => buffer.result()).toThrow('failed');
  });

  it('hands buffered events over one at a time, in order, also when more arrive meanwhile', () => {
    const buffer = new EventBuffer<number>();
    expect(buffer.shift()).toBeUndefined();
    buffer.push(1);
    buffer.push(2);
    expect(buffer.shift()).toBe(1);
    buffer.push(3);
    expect(buffer.shift()).toBe(2);
    expect(buffer.shift()).toBe(3);
    expect(buffer.shift()).toBeUndefined();
    expect(buffer.take()).toBeUndefined();
    buffer.push(4);
    expect(buffer.take()).toEqual([4]);
  });
});
