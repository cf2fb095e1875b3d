import { describe, expect, it } from 'vitest';
import { createMemorySessionStore } from './session-store.js';

describe('createMemorySessionStore', () => {
  it('stamps appended entries, keeps an entry’s own createdAt, and loads copies', async () => {
    const store = createMemorySessionStore();
    const before = Date.now();
    await store.append('s', [{ message: { role: 'user', content: 'a' } }]);
    await store.append('s', [{ message: { role: 'assistant', content: [{ type: 'text', text: 'b' }] }, createdAt: 5 }]);
    const loaded = await store.load('s');
    expect(loaded[0]?.createdAt).toBeGreaterThanOrEqual(before);
    expect(loaded[1]?.createdAt).toBe(5);
    (loaded[0] as { message: { content: string } }).message.content = 'changed';
    expect((await store.load('s'))[0]?.message).toEqual({ role: 'user', content: 'a' });
    expect(await store.load('other')).toEqual([]);
    expect(store.sessions()).toEqual(['s']);
  });

  it('keeps sessions apart and child sessions unique', async () => {
    const store = createMemorySessionStore();
    expect(store.childSessions()).toEqual([]);
    await store.append('a', [{ message: { role: 'user', content: '1' } }]);
    await store.append('b', [{ message: { role: 'user', content: '2' } }]);
    expect((await store.load('b')).map((entry) => entry.message.content)).toEqual(['2']);
    await store.createChildSession({ sessionId: 'c', parentSessionId: 'a' });
    await expect(store.createChildSession({ sessionId: 'c', parentSessionId: 'b' })).rejects.toThrow(/exists already/);
    expect(store.childSessions()).toEqual([{ sessionId: 'c', parentSessionId: 'a' }]);
  });

  it('lists sessions in the order they were first appended to, each with its own entries', async () => {
    const store = createMemorySessionStore();
    expect(store.sessions()).toEqual([]);
    expect(await store.load('x')).toEqual([]);
    for (const [id, text] of [
      ['x', '1'],
      ['y', '2'],
      ['x', '3'],
      ['z', '4'],
      ['y', '5'],
    ] as const) {
      await store.append(id, [{ message: { role: 'user', content: text } }]);
    }
    expect(store.sessions()).toEqual(['x', 'y', 'z']);
    const contents = async (id: string) => (await store.load(id)).map((entry) => entry.message.content);
    expect(await contents('x')).toEqual(['1', '3']);
    expect(await contents('y')).toEqual(['2', '5']);
    expect(await contents('z')).toEqual(['4']);
  });
});
