import type { Message } from '@boxagnts/api';
import { describe, expect, it } from 'vitest';
import type { QueryEvent } from '../events.js';
import { testRunState } from '../test/run-state.js';
import { compactRun, contextTokens, pressureEvent, shouldCompact } from './compact-step.js';

async function drain(run: AsyncGenerator<QueryEvent, boolean>): Promise<{ events: QueryEvent[]; changed: boolean }> {
  const events: QueryEvent[] = [];
  for (;;) {
    const next = await run.next();
    if (next.done) return { events, changed: next.value };
    events.push(next.value);
  }
}

function history(turns: number): Message[] {
  const messages: Message[] = [{ role: 'user', content: 'task' }];
  for (let index = 0; index < turns; index++) {
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id: `c${index}`, name: 'read', input: { path: `f${index}` } }],
    });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: `c${index}`, content: 'r'.repeat(4000) }],
    });
  }
  return messages;
}

describe('the compaction step', () => {
  it('estimates, reports pressure once per level, and decides from the threshold', () => {
    const state = testRunState({ contextWindow: 1000 });
    state.lastInputTokens = 700;
    state.charsSinceUsage = 400;
    expect(contextTokens(state)).toBe(800);
    expect(pressureEvent(state, 800)).toMatchObject({ level: 'warning' });
    expect(pressureEvent(state, 810)).toBeUndefined();
    expect(shouldCompact(state, 800)).toBe(true);
    state.compactionStalled = true;
    expect(shouldCompact(state, 800)).toBe(false);
  });

  it('replaces the history with old results summarised and recounts the tool characters', async () => {
    const state = testRunState({ contextWindow: 100_000, compaction: { keepRecentTurns: 1 } });
    state.messages.splice(0, state.messages.length, ...history(6));
    const { changed } = await drain(compactRun(state, 90_000, false));
    expect(changed).toBe(true);
    expect(state.toolChars).toBeLessThan(6 * 4000);
    expect(state.lastInputTokens).toBe(0);
    expect(state.fruitlessCompactions).toBe(0);
  });

  it('turns compaction off after two fruitless attempts', async () => {
    const state = testRunState({ contextWindow: 10 });
    const first = await drain(compactRun(state, 100, false));
    expect(first.changed).toBe(false);
    const second = await drain(compactRun(state, 100, false));
    expect(state.compactionStalled).toBe(true);
    expect(second.events.some((event) => event.type === 'status' && event.data?.phase === 'stalled')).toBe(true);
  });
});
