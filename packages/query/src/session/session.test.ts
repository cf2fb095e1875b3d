import type { Message } from '@boxagnts/api';
import { describe, expect, it } from 'vitest';
import { historyFromEntries } from './history-from-entries.js';
import { INTERRUPTED_TOOL_RESULT, repairHistory } from './repair-history.js';
import { createMemorySessionStore } from './session-store.js';

const call = (id: string, name = 'edit'): Message => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name, input: { file_path: 'a.txt' } }],
});

describe('repairHistory', () => {
  it('gives an interrupted tool call an error result saying so, without re-running it', () => {
    const history: Message[] = [{ role: 'user', content: 'edit a.txt' }, call('t1')];
    const { messages, repairedToolCallIds } = repairHistory(history);
    expect(repairedToolCallIds).toEqual(['t1']);
    expect(messages).toHaveLength(3);
    expect(messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: 't1', content: INTERRUPTED_TOOL_RESULT, isError: true }],
    });
    // Pure: the input is untouched.
    expect(history).toHaveLength(2);
  });

  it('fills only the missing results of a partly answered turn, in the model order, before user text', () => {
    const history: Message[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'a', name: 'read', input: {} },
          { type: 'tool_use', id: 'b', name: 'read', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'also this' },
          { type: 'tool_result', toolUseId: 'b', content: 'B' },
        ],
      },
    ];
    const { messages, repairedToolCallIds } = repairHistory(history);
    expect(repairedToolCallIds).toEqual(['a']);
    const blocks = messages[2]?.content as Array<{ type: string; toolUseId?: string; text?: string }>;
    expect(blocks.map((block) => block.toolUseId ?? block.text)).toEqual(['a', 'b', 'also this']);
  });

  it('leaves a complete history as it is', () => {
    const history: Message[] = [
      { role: 'user', content: 'go' },
      call('t1'),
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', content: 'ok' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    ];
    expect(repairHistory(history)).toEqual({ messages: history, repairedToolCallIds: [] });
  });
});

describe('session store and resume', () => {
  it('stores copies, loads in order, and resumes after the latest compaction', async () => {
    const store = createMemorySessionStore();
    const first: Message = { role: 'user', content: 'one' };
    await store.append('s', [
      { message: first },
      { message: { role: 'assistant', content: [{ type: 'text', text: 'two' }] } },
    ]);
    await store.append('s', [
      { message: { role: 'user', content: 'three' } },
      { message: { role: 'user', content: '[Conversation summary] S' }, compaction: { keptMessages: 1 } },
      { message: call('t9') },
    ]);
    const entries = await store.load('s');
    expect(entries[0]?.message.content).toBe('one');
    // What a caller loads is a copy: changing it changes nothing stored.
    (entries[0]?.message as { content: string }).content = 'changed after load';
    expect((await store.load('s'))[0]?.message.content).toBe('one');
    expect(store.sessions()).toEqual(['s']);
    const history = historyFromEntries(entries);
    expect(history.map((message) => (typeof message.content === 'string' ? message.content : message.role))).toEqual([
      '[Conversation summary] S',
      'three',
      'assistant',
      'user',
    ]);
    // The interrupted call at the end was repaired.
    expect(JSON.stringify(history.at(-1))).toContain('interrupted');
  });
});
