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

  it('loads every entry and usage record as it was given, key order included, whatever its fields', async () => {
    const store = createMemorySessionStore();
    const usage = {
      input: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
      output: { total: 1, text: 1, reasoning: 0 },
    };
    const user = { role: 'user' as const, content: 'a' };
    const assistant = { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'b' }] };
    const entries = [
      { message: user },
      { message: assistant, model: 'm', usage },
      { message: assistant, usage, model: 'm' },
      { message: user, compaction: { keptMessages: 1 } },
      { message: assistant, model: 'm' },
      { message: user, createdAt: 7 },
      { message: user, model: undefined },
    ];
    await store.append('s', entries);
    const loaded = await store.load('s');
    const at = loaded[0]?.createdAt as number;
    const expected = entries.map((entry) => ({ createdAt: at, ...entry }));
    expect(loaded).toEqual(expected);
    expect(loaded.map((entry) => Object.keys(entry))).toEqual(expected.map((entry) => Object.keys(entry)));

    const records = [
      { sessionId: 's', provider: 'p', model: 'm', purpose: 'turn' as const, usage, createdAt: 1, costUsd: 0.5 },
      { sessionId: 's', provider: 'p', model: 'm', purpose: 'turn' as const, usage, createdAt: 2 },
      {
        sessionId: 's',
        provider: 'p',
        model: 'n',
        purpose: 'summary' as const,
        usage,
        createdAt: 3,
        agent: 'a',
        subAgent: 'x',
      },
      { sessionId: 's', provider: 'p', model: 'm', purpose: 'turn' as const, usage, createdAt: 4, costUsd: Number.NaN },
      { provider: 'p', sessionId: 's', model: 'm', purpose: 'turn' as const, usage, createdAt: 5 },
      { sessionId: 's', provider: 'p', model: 'm', purpose: 'other' as const, usage, agent: undefined, createdAt: 6 },
    ];
    for (const record of records) await store.recordUsage(record);
    await store.recordUsage({ sessionId: 's', provider: 'p', model: 'm', purpose: 'turn', usage });
    const got = store.usageRecords();
    expect(got.slice(0, records.length)).toEqual(records);
    expect(got.slice(0, records.length).map((record) => Object.keys(record))).toEqual(
      records.map((record) => Object.keys(record)),
    );
    expect(got[records.length]?.createdAt).toBeGreaterThanOrEqual(at);
    (got[0] as { usage: { input: { total: number } } }).usage.input.total = 99;
    expect(store.usageRecords()[0]?.usage.input.total).toBe(3);
  });
});
