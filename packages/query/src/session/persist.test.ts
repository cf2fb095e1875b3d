import { describe, expect, it } from 'vitest';
import { persist, persistStart } from './persist.js';
import { createMemorySessionStore } from './session-store.js';

describe('persistence', () => {
  it('stores only the new messages a run starts with, and refuses a history that does not continue the session', async () => {
    const store = createMemorySessionStore();
    const session = { store, sessionId: 'p1' };
    expect(await persistStart(session, [{ role: 'user', content: 'one' }])).toBeUndefined();
    await persist(session, [{ message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] } }]);
    const resumed = (await store.load('p1')).map((entry) => entry.message);
    expect(await persistStart(session, [...resumed, { role: 'user', content: 'two' }])).toBeUndefined();
    expect((await store.load('p1')).map((entry) => entry.message.role)).toEqual(['user', 'assistant', 'user']);
    const error = await persistStart(session, [{ role: 'user', content: 'elsewhere' }]);
    expect(error).toContain('do not continue session "p1"');
    expect(persist(undefined, [])).toBeUndefined();
  });
});
