import type { SessionRecord, StoredMessage } from '@boxagnts/workspace';
import { describe, expect, it } from 'vitest';
import { linkSubAgentSessions } from './sub-agent-links.js';

const child = (id: string, title: string, createdAt: number, kind: SessionRecord['kind'] = 'sub-agent') =>
  ({ id, title, kind, parentSessionId: 'p', createdAt, updatedAt: createdAt, messageCount: 2 }) as SessionRecord;

const call = (seq: number, calls: { id: string; description: string; name?: string }[]): StoredMessage => ({
  sessionId: 'p',
  seq,
  message: {
    role: 'assistant',
    content: calls.map((item) => ({
      type: 'tool_use' as const,
      id: item.id,
      name: item.name ?? 'agent',
      input: { description: item.description, prompt: 'Go.' },
    })),
  },
});

describe('linkSubAgentSessions', () => {
  it('matches each agent call to the sub-agent session with its description, in the order they were numbered', () => {
    const messages = [
      call(2, [
        { id: 'c1', description: 'look' },
        { id: 'c2', description: 'look' },
      ]),
      call(4, [
        { id: 'c3', description: 'count' },
        { id: 'c4', description: 'read', name: 'read' },
      ]),
    ];
    const children = [
      child('p/agent-1-10', 'look', 5),
      child('p/agent-1-2', 'look', 5),
      child('p/agent-1-3', 'count', 6),
      child('fork-1', 'count', 1, 'fork'),
    ];
    expect(linkSubAgentSessions(messages, children)).toEqual({
      c1: 'p/agent-1-2',
      c2: 'p/agent-1-10',
      c3: 'p/agent-1-3',
    });
  });

  it('leaves a call without a session of its description (a store that kept none) unlinked', () => {
    expect(linkSubAgentSessions([call(2, [{ id: 'c1', description: 'look' }])], [])).toEqual({});
  });
});
