import type { Message } from '@boxagnts/api';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, type Harness, startHarness } from '../test/harness.js';
import { historyFromEntries } from './history-from-entries.js';
import { createMemorySessionStore } from './session-store.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 100, output: 20 };

describe('runs that continue a stored session', () => {
  it('store the new question of a history resumed after a compaction', async () => {
    harness = await startHarness({ steps: [{ text: 'answer two', usage }] });
    const store = createMemorySessionStore();
    const old: Message[] = [];
    for (let index = 0; index < 5; index++) {
      old.push({ role: 'user', content: `question ${index}` });
      old.push({ role: 'assistant', content: [{ type: 'text', text: `answer ${index}` }] });
    }
    await store.append(
      's',
      old.map((message) => ({ message })),
    );
    // A compaction kept the last two messages behind a summary.
    await store.append('s', [
      { message: { role: 'user', content: '[Conversation summary] S' }, compaction: { keptMessages: 2 } },
    ]);
    const resumed = historyFromEntries(await store.load('s'));
    expect(resumed).toHaveLength(3);
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [...resumed, { role: 'user', content: 'question five' }],
      toolContext: { root: harness.root, sessionId: 's' },
      config: { model: 'claude-sonnet-4-6' },
      session: { store, sessionId: 's' },
    });
    expect(outcome.reason).toBe('end_turn');
    const stored = (await store.load('s')).map((entry) => entry.message);
    expect(stored.slice(-2)).toEqual([
      { role: 'user', content: 'question five' },
      { role: 'assistant', content: [{ type: 'text', text: 'answer two' }] },
    ]);
    expect(stored).toHaveLength(13);
  });

  it('refuse a history that does not continue the session, unless told how many messages are new', async () => {
    harness = await startHarness({ steps: [{ text: 'ok', usage }], repeatLast: true });
    const store = createMemorySessionStore();
    await store.append('s', [{ message: { role: 'user', content: 'stored question' } }]);
    const unrelated: Message[] = [{ role: 'user', content: 'something else' }];
    const refused = await collect({
      provider: harness.provider,
      messages: unrelated,
      toolContext: { root: harness.root, sessionId: 's' },
      config: { model: 'claude-sonnet-4-6' },
      session: { store, sessionId: 's' },
    });
    expect(refused.outcome.reason).toBe('error');
    expect(refused.outcome.reason === 'error' && refused.outcome.error).toContain('session.unsaved');
    expect(harness.mock.requests).toHaveLength(0);
    const accepted = await collect({
      provider: harness.provider,
      messages: unrelated,
      toolContext: { root: harness.root, sessionId: 's' },
      config: { model: 'claude-sonnet-4-6' },
      session: { store, sessionId: 's', unsaved: 1 },
    });
    expect(accepted.outcome.reason).toBe('end_turn');
    expect((await store.load('s')).map((entry) => entry.message.content)).toEqual([
      'stored question',
      'something else',
      [{ type: 'text', text: 'ok' }],
    ]);
  });
});
