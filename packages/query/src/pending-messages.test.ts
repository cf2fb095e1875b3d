import type { Message } from '@boxagnts/api';
import { afterEach, describe, expect, it } from 'vitest';
import { runQuery } from './loop.js';
import type { QueryOutcome } from './outcome.js';
import { createMemorySessionStore } from './session/session-store.js';
import { type Harness, startHarness } from './test/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 100, output: 10 };

/** A queue the test fills when the first answer starts streaming, as a user typing would. */
function queue() {
  const waiting: Message[] = [];
  return { waiting, pending: { drain: () => waiting.splice(0, waiting.length) } };
}

async function run(config: Record<string, unknown>, store = createMemorySessionStore()) {
  const { waiting, pending } = queue();
  let sent = false;
  const generator = runQuery({
    provider: (harness as Harness).provider,
    messages: [{ role: 'user', content: 'Write a haiku' }],
    toolContext: { root: (harness as Harness).root, sessionId: 'pq' },
    session: { store, sessionId: 'pq' },
    pending,
    config: { model: 'claude-sonnet-4-6', ...config },
  });
  for (;;) {
    const next = await generator.next();
    if (next.done) return { outcome: next.value as QueryOutcome, store };
    if (next.value.type === 'text-delta' && !sent) {
      sent = true;
      waiting.push({ role: 'user', content: 'And make it about the sea.' });
    }
  }
}

describe('pending messages sent while the final answer streams', () => {
  it('start a follow-up turn, stored in order', async () => {
    harness = await startHarness({
      steps: [
        { text: 'A haiku about nothing.', usage },
        { text: 'A haiku about the sea.', usage },
      ],
    });
    const { outcome, store } = await run({});
    expect(outcome.reason).toBe('end_turn');
    expect(outcome.turns).toBe(2);
    expect(outcome.text).toBe('A haiku about the sea.');
    const stored = (await store.load('pq')).map((entry) => entry.message.content);
    expect(JSON.stringify(stored)).toContain('And make it about the sea.');
    expect(JSON.stringify(harness.mock.requests[1]?.body)).toContain('And make it about the sea.');
  });

  it('are handed back in the outcome when the host asks for it', async () => {
    harness = await startHarness({ steps: [{ text: 'A haiku about nothing.', usage }] });
    const { outcome } = await run({ pendingAtEnd: 'return' });
    expect(outcome.reason).toBe('end_turn');
    expect(outcome.pending).toEqual([{ role: 'user', content: 'And make it about the sea.' }]);
    expect(harness.mock.requests).toHaveLength(1);
  });

  it('are handed back when a limit stops the follow-up turn', async () => {
    harness = await startHarness({ steps: [{ text: 'A haiku about nothing.', usage }] });
    const { outcome } = await run({ maxTurns: 1 });
    expect(outcome.reason).toBe('max_turns');
    expect(outcome.pending).toHaveLength(1);
  });
});
