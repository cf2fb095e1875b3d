import type { QueryEvent } from '@boxagnts/query';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';
import { createAgent } from './create-agent.js';

let current: TestWorkspace | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const usage = { input: 1000, output: 10 };

describe('sub-agents of a gateway run', () => {
  it('stores the sub-agent transcript as a child session and records its calls with purpose and sub-agent', async () => {
    current = await createTestWorkspace(
      {
        steps: [
          {
            content: [{ type: 'tool_call', name: 'agent', input: { description: 'look', prompt: 'Look around.' } }],
            usage,
          },
          { text: 'child answer', usage },
          { text: 'parent answer', usage },
        ],
      },
      { permissions: { allow: ['agent'] } },
    );
    const agent = await createAgent({ workspace: current.workspace });
    const run = agent.run('Delegate a look', { sessionId: 'parent-1' });
    const events: QueryEvent[] = [];
    for await (const event of run) events.push(event);
    const outcome = await run.outcome;
    expect(outcome.reason).toBe('end_turn');
    expect(outcome.text).toBe('parent answer');
    const delegated = events.find((event) => event.type === 'tool-end' && event.name === 'agent');
    expect(delegated?.type === 'tool-end' && JSON.stringify(delegated.result.content)).toContain('child answer');

    const sessions = current.workspace.store.sessions;
    const children = await sessions.children('parent-1');
    expect(children.map((child) => child.id)).toEqual(['parent-1/agent-1-1']);
    const transcript = await sessions.load('parent-1/agent-1-1');
    expect(transcript.map((entry) => entry.message.role)).toEqual(['user', 'assistant']);
    expect(transcript[0]?.message.content).toBe('Look around.');

    const bySubAgent = await current.workspace.store.usage.report('subAgent');
    expect(bySubAgent.map((row) => [row.key, row.calls]).sort()).toEqual([
      ['', 2],
      ['agent-1-1', 1],
    ]);
    const byPurpose = await current.workspace.store.usage.report('purpose');
    expect(byPurpose.map((row) => [row.key, row.calls])).toEqual([['turn', 3]]);
    await agent.close();
  });
});
