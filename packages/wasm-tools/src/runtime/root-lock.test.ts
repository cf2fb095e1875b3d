import { rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RootLock } from './root-lock.js';
import { tempDir } from './test-fixtures.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('RootLock', () => {
  it('runs holders of one root one after another, also through a symlinked spelling', async () => {
    const dir = await tempDir('lock');
    try {
      const alias = join(dir.path, '..', `${dir.path.split('/').pop()}-alias`);
      await symlink(dir.path, alias);
      const lock = new RootLock();
      const events: string[] = [];
      const gate = deferred();
      const first = lock.withLock(dir.path, async () => {
        events.push('first start');
        await gate.promise;
        events.push('first end');
      });
      const second = lock.withLock(alias, async () => {
        events.push('second');
      });
      const other = await tempDir('lock-other');
      const unrelated = lock.withLock(other.path, async () => {
        events.push('other root');
      });
      await unrelated;
      expect(events).toEqual(['first start', 'other root']);
      gate.resolve();
      await Promise.all([first, second]);
      expect(events).toEqual(['first start', 'other root', 'first end', 'second']);
      await other.remove();
      await rm(alias);
    } finally {
      await dir.remove();
    }
  });

  it('grants the lock in call order, whichever spelling resolves first', async () => {
    const dir = await tempDir('lock-order');
    const alias = join(dir.path, '..', `${dir.path.split('/').pop()}-alias`);
    await symlink(dir.path, alias);
    try {
      const lock = new RootLock();
      const order: number[] = [];
      const calls = Array.from({ length: 40 }, (_, index) =>
        lock.withLock(index % 3 === 0 ? alias : dir.path, async () => {
          order.push(index);
        }),
      );
      await Promise.all(calls);
      expect(order).toEqual(Array.from({ length: 40 }, (_, index) => index));
    } finally {
      await rm(alias);
      await dir.remove();
    }
  });

  it('releases the lock when the work throws', async () => {
    const lock = new RootLock();
    await expect(
      lock.withLock('/nonexistent-root-for-lock', async () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    expect(await lock.withLock('/nonexistent-root-for-lock', async () => 'next')).toBe('next');
  });
});
